import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { RESOLVER_TYPE_METADATA } from '@nestjs/graphql';
import { ACCESS_RULE, PUBLIC } from './access.decorators';

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
  }

  /** `Class.method` of every operation without a rule. */
  undeclared(): string[] {
    const missing: string[] = [];
    const wrappers = [...this.discovery.getControllers(), ...this.discovery.getProviders()];
    for (const wrapper of wrappers) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.metatype) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = (prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
        const isRoute =
          Reflect.getMetadata(PATH_METADATA, handler) !== undefined &&
          Reflect.getMetadata(METHOD_METADATA, handler) !== undefined;
        const isOperation = Reflect.getMetadata(RESOLVER_TYPE_METADATA, handler) !== undefined;
        if (!isRoute && !isOperation) continue;
        const targets = [handler, wrapper.metatype as object];
        const declared =
          this.reflector.getAllAndOverride<boolean>(PUBLIC, targets as never) ||
          this.reflector.getAllAndOverride<unknown>(ACCESS_RULE, targets as never) !== undefined;
        if (!declared) missing.push(`${(wrapper.metatype as { name: string }).name}.${name}`);
      }
    }
    return missing;
  }
}
