import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  guardedWrite,
  type ProjectSources,
  type SourceChanges,
  type SourceRecords,
  type SourceRemovals,
  type WriteChecks,
} from '@trove/catalog';
import { type ApiConfig, maskSecret, type SecretBox } from '@trove/config';
import {
  normalizeSourceName,
  removeSourceWorkflowId,
  type SecretSealer,
  type Source,
  type SourceConfig,
  type SourceDefinitions,
  SourceStatus,
  sourceWithConfig,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { PROJECT_SOURCES, SOURCE_RECORDS, SOURCE_REMOVALS, WRITE_CHECKS } from '../core/catalog.providers';
import type { WorkflowStarts } from '../core/workflows';
import { CONFIG, SECRETS, SOURCE_DEFINITIONS, WORKFLOWS } from '../core/tokens';
import type { AddSourceInput, UpdateSourceInput } from './source.model';

/** Sources as records: adding one of any type (its config checked by the type's definition), changing and removing it. */
@Injectable()
export class SourcesService {
  constructor(
    @Inject(WRITE_CHECKS) private readonly writeChecks: WriteChecks,
    @Inject(SOURCE_RECORDS) private readonly sources: Pick<SourceRecords, 'requireSource' | 'updateSource'>,
    @Inject(PROJECT_SOURCES) private readonly projectSources: ProjectSources,
    @Inject(SOURCE_REMOVALS) private readonly removals: Pick<SourceRemovals, 'markSourceRemoving'>,
    @Inject(WORKFLOWS) private readonly workflows: WorkflowStarts,
    @Inject(CONFIG) private readonly config: ApiConfig,
    @Inject(SOURCE_DEFINITIONS) private readonly definitions: SourceDefinitions,
    /** Unset without TROVE_SECRET_KEY: then no secret can be stored. */
    @Inject(SECRETS) private readonly secrets: Pick<SecretBox, 'encrypt'> | undefined,
  ) {}

  /**
   * A source of any type: its configuration is validated by the type's definition (errors name
   * the field) and stored with its secrets sealed.
   */
  async add(input: AddSourceInput): Promise<Source> {
    // An unknown type is refused first: BAD_REQUEST naming the registered types.
    const { type } = this.definitions.get(input.type);
    await this.writeChecks.requireActiveProject(input.projectId);
    const name = normalizeSourceName(input.name);
    const config = await this.definitions.configure(type, withoutNulls(input.config), this.seal);
    const now = new Date().toISOString();
    return this.createSource(
      sourceWithConfig(
        {
          id: randomUUID(),
          projectId: input.projectId,
          type,
          name,
          status: SourceStatus.ACTIVE,
          createdAt: now,
          updatedAt: now,
        },
        config,
      ),
    );
  }

  list(projectId: string): Promise<Source[]> {
    return this.projectSources.listSources(projectId);
  }

  /**
   * Renames a source or changes its configuration: `config` changes the fields it gives (secrets
   * left out stay as they are), validated by the type's definition. A new secret (a token after
   * the old one was revoked) makes a NEEDS_TOKEN source ACTIVE again.
   */
  async update(id: string, input: UpdateSourceInput): Promise<Source> {
    const source = await this.writeChecks.requireActiveSource(id);
    const definition = this.definitions.get(source.type);
    const changes: SourceChanges = {};
    if (input.name !== undefined && input.name !== null) changes.name = normalizeSourceName(input.name);
    const patch: SourceConfig =
      input.config === undefined || input.config === null ? {} : { ...input.config };
    if (input.config !== undefined && input.config !== null && !isObject(input.config)) {
      throw new TroveError(TroveErrorCode.BadRequest, 'config must be a JSON object');
    }
    if (input.token?.trim()) {
      if (!definition.secretFields.includes('token')) {
        throw new TroveError(TroveErrorCode.BadRequest, `${source.type} sources have no token`);
      }
      patch['token'] = input.token;
    }
    if (Object.keys(patch).length > 0) {
      changes.config = await this.definitions.configure(source.type, patch, this.seal, source.config);
      if (definition.secretFields.some((field) => typeof patch[field] === 'string')) {
        changes.status = SourceStatus.ACTIVE;
      }
    }
    await this.sources.updateSource(id, changes);
    return this.sources.requireSource(id);
  }

  /**
   * Removes the source with everything it produced (documents, chunks, originals, archives,
   * unpacked caches, schedule, webhook workflow) through its remove workflow; returns when done.
   */
  async remove(id: string): Promise<boolean> {
    const source = await this.sources.requireSource(id);
    await this.writeChecks.requireActiveProject(source.projectId);
    await this.removals.markSourceRemoving(id);
    try {
      const handle = await this.workflows.start('removeSource', {
        taskQueue: this.config.temporal.taskQueue,
        workflowId: removeSourceWorkflowId(id),
        args: [id],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
      await handle.result();
    } catch (error) {
      throw new TroveError(
        TroveErrorCode.ServiceUnavailable,
        'the source could not be removed yet (it is marked as being removed); call removeSource again',
        { cause: error },
      );
    }
    return true;
  }

  /** Creates a source record, unless the project's deletion started meanwhile. */
  private createSource(source: Source): Promise<Source> {
    return guardedWrite(
      this.writeChecks,
      { projectId: source.projectId },
      () => this.projectSources.createSource(source),
      () => this.projectSources.deleteSource(source.id),
    );
  }

  /** Seals a secret of a source's configuration; refused when no key is configured. */
  private readonly seal: SecretSealer = (plain) => {
    if (!this.secrets) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'set TROVE_SECRET_KEY (32 random bytes, base64) on the api and worker to store integration tokens',
      );
    }
    return { sealed: this.secrets.encrypt(plain), hint: maskSecret(plain) };
  };
}

/** GraphQL gives unset optional inputs as null: left out, as in JSON. */
function withoutNulls(config: unknown): unknown {
  if (!isObject(config)) return config;
  return Object.fromEntries(
    Object.entries(config).filter(([, value]) => value !== null && value !== undefined),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
