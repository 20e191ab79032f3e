import 'reflect-metadata';
import { Controller, Get, Module, Post } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, MetadataScanner, NestFactory, Reflector } from '@nestjs/core';
import { Mutation, Query, Resolver, ResolveField } from '@nestjs/graphql';
import { describe, expect, it } from 'vitest';
import { AuditAction, Permission } from '@trove/domain';
import { Public, Requires } from './access.decorators';
import { AccessRegistryCheck } from './access-registry.check';

@Controller('open')
@Public()
class OpenController {
  @Get()
  probe() {
    return 'probe';
  }
}

@Controller('mixed')
class MixedController {
  @Get()
  forgotten() {
    return 'forgotten';
  }
  @Post()
  @Requires(Permission.WRITE)
  declared() {
    return 'declared';
  }
  helper() {
    return 'helper';
  }
}

@Resolver()
class SomeResolver {
  @Query(() => String)
  @Requires(Permission.READ)
  declared() {
    return '';
  }
  @Query(() => String)
  forgotten() {
    return '';
  }
  @ResolveField(() => String)
  field() {
    return '';
  }
  @Mutation(() => String)
  @Requires(Permission.WRITE)
  unrecorded() {
    return '';
  }
  @Mutation(() => String)
  @Requires(Permission.WRITE, undefined, { audit: AuditAction.SourceChanged })
  recorded() {
    return '';
  }
}

@Module({
  imports: [DiscoveryModule],
  controllers: [OpenController, MixedController],
  providers: [SomeResolver],
})
class TestModule {}

describe('AccessRegistryCheck', () => {
  it('names every route and GraphQL operation without @Requires or @Public, and refuses to start', async () => {
    const app = await NestFactory.createApplicationContext(TestModule, { logger: false });
    const check = new AccessRegistryCheck(
      app.get(DiscoveryService),
      app.get(MetadataScanner),
      app.get(Reflector),
    );
    expect(check.undeclared().sort()).toEqual(['MixedController.forgotten', 'SomeResolver.forgotten']);
    expect(() => check.onApplicationBootstrap()).toThrow(
      /without an access rule.*MixedController\.forgotten/,
    );
    await app.close();
  });

  it('names every mutation and non-GET route that does not say what the audit log records', async () => {
    const app = await NestFactory.createApplicationContext(TestModule, { logger: false });
    const check = new AccessRegistryCheck(
      app.get(DiscoveryService),
      app.get(MetadataScanner),
      app.get(Reflector),
    );
    expect(check.unaudited().sort()).toEqual(['MixedController.declared', 'SomeResolver.unrecorded']);
    await app.close();
  });
});
