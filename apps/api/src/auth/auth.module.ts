import { Module } from '@nestjs/common';
import { AuthController } from './auth.controller';
import { ProtectedResourceController } from './protected-resource.controller';

/** Sign-in and sign-out, and the protected-resource metadata of /mcp. */
@Module({ controllers: [AuthController, ProtectedResourceController] })
export class AuthModule {}
