import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ApiKeyRepository, StoredApiKey, WriteChecks } from '@trove/catalog';
import { ApiKeyRole, normalizeLabel, type Principal, TroveError, TroveErrorCode } from '@trove/domain';
import { API_KEYS, WRITE_CHECKS } from '../core/catalog.providers';
import { ApiKeyAuthenticator } from '../access/api-key-authenticator';
import { maskedApiKey, newApiKeySecret } from '../access/api-key-secret';
import type { ApiKeyModel, CreateApiKeyInput, CreatedApiKeyModel } from './api-key.model';

/** Most projects one key may name (beyond that, an all-projects key is what is meant). */
const MAX_PROJECTS = 1000;

@Injectable()
export class ApiKeysService {
  constructor(
    @Inject(API_KEYS) private readonly apiKeys: Pick<ApiKeyRepository, 'create' | 'list' | 'revoke'>,
    @Inject(WRITE_CHECKS) private readonly writeChecks: Pick<WriteChecks, 'requireActiveProject'>,
    @Inject(ApiKeyAuthenticator) private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  /** A new key; its secret is returned here and never again (only its SHA-256 is stored). */
  async create(input: CreateApiKeyInput, creator: Principal): Promise<CreatedApiKeyModel> {
    const name = normalizeLabel(input.name, 'an API key name');
    if (!Object.values(ApiKeyRole).includes(input.role)) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `role must be one of ${Object.values(ApiKeyRole).join(', ')}`,
      );
    }
    const projectIds = await this.projectScope(input);
    const id = randomUUID();
    const { token, secretSha256 } = newApiKeySecret(id);
    const stored = await this.apiKeys.create({
      id,
      name,
      role: input.role,
      projectIds,
      secretSha256,
      createdBy: creator.name,
    });
    return { apiKey: toModel(stored), secret: token };
  }

  async list(): Promise<ApiKeyModel[]> {
    return (await this.apiKeys.list()).map(toModel);
  }

  /** Revokes at once: the next request with the key is UNAUTHENTICATED. */
  async revoke(id: string): Promise<ApiKeyModel> {
    const revoked = await this.apiKeys.revoke(id);
    if (!revoked) throw new TroveError(TroveErrorCode.ApiKeyNotFound, `API key ${id} does not exist`);
    this.authenticator.forget(id);
    return toModel(revoked);
  }

  /** Null for every project; otherwise existing, distinct project ids. */
  private async projectScope(input: CreateApiKeyInput): Promise<string[] | null> {
    if (input.projectIds === undefined || input.projectIds === null) return null;
    if (input.role === ApiKeyRole.ADMIN) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'an ADMIN key reaches every project: leave projectIds out (or choose EDITOR or VIEWER)',
      );
    }
    const ids = [...new Set(input.projectIds)];
    if (ids.length === 0 || ids.length > MAX_PROJECTS) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `projectIds needs 1 to ${MAX_PROJECTS} projects (leave it out for every project)`,
      );
    }
    for (const projectId of ids) await this.writeChecks.requireActiveProject(projectId);
    return ids;
  }
}

function toModel(key: StoredApiKey): ApiKeyModel {
  return {
    id: key.id,
    name: key.name,
    role: key.role,
    projectIds: key.projectIds,
    prefix: maskedApiKey(key.id),
    createdBy: key.createdBy,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
  };
}
