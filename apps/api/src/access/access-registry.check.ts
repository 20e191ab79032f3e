import { Inject, Injectable, type OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { RESOLVER_TYPE_METADATA } from '@nestjs/graphql';
import { ACCESS_RULE, type AccessRule, PUBLIC } from './access.decorators';

/**
 * Refuses to start when a GraphQL operation or REST route declares neither `@Requires(…)` nor
 * `@Public()`: an operation added without an access rule must not go out open (or closed by
 * accident) — the guard would refuse it, but start-up says so first.
 */
@Injectable()
export class AccessRegistryCheck implements OnApplicationBootstrap {
  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
    @Inject(Reflector) private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const missing = this.undeclared();
    if (missing.length > 0) {
      throw new Error(`operations without an access rule (@Requires or @Public): ${missing.join(', ')}`);
    }
    const unaudited = this.unaudited();
    if (unaudited.length > 0) {
      throw new Error(
        `operations that change something without saying what the audit log records (audit: an action, or false): ${unaudited.join(', ')}`,
      );
    }
  }

  /** `Class.method` of every operation without a rule. */
  undeclared(): string[] {
    return this.operations()
      .filter((operation) => !operation.declared)
      .map((operation) => operation.name);
  }

  /**
   * `Class.method` of every mutation and every REST route other than GET whose rule does not say
   * what the audit log records (an action, or `false`).
   */
  unaudited(): string[] {
    return this.operations()
      .filter((operation) => operation.changes && operation.rule && operation.rule.audit === undefined)
      .map((operation) => operation.name);
  }

  private operations(): { name: string; declared: boolean; changes: boolean; rule?: AccessRule }[] {
    const found: { name: string; declared: boolean; changes: boolean; rule?: AccessRule }[] = [];
    const wrappers = [...this.discovery.getControllers(), ...this.discovery.getProviders()];
    for (const wrapper of wrappers) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.metatype) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = (prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const isRoute = Reflect.getMetadata(PATH_METADATA, handler) !== undefined && method !== undefined;
        const resolverType = Reflect.getMetadata(RESOLVER_TYPE_METADATA, handler) as string | undefined;
        if (!isRoute && resolverType === undefined) continue;
        const targets = [handler, wrapper.metatype as object];
        const isPublic = this.reflector.getAllAndOverride<boolean>(PUBLIC, targets as never) ?? false;
        const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, targets as never);
        found.push({
          name: `${(wrapper.metatype as { name: string }).name}.${name}`,
          declared: isPublic || rule !== undefined,
          changes: resolverType === 'Mutation' || (isRoute && method !== RequestMethod.GET),
          rule,
        });
      }
    }
    return found;
  }
}
