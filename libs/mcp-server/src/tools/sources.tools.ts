import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod/v3';
import {
  AddSourceDocument,
  CancelSyncRunDocument,
  configFields,
  SourcesDocument,
  SourceTypesDocument,
  SyncRunDocument,
  type SyncRunFieldsFragment,
  SyncSourceDocument,
  TroveApiError,
  type TroveOperations,
} from '@trove/api-client';
import {
  addSourceOutput,
  type AddSourceOutput,
  listSourcesOutput,
  listSourceTypesOutput,
  type ListSourceTypesOutput,
  type ListSourcesOutput,
  syncProgressOutput,
  syncRunOutput,
  type SyncRunOutput,
  syncSourceOutput,
  type SyncSourceOutput,
} from '../output-schemas';
import { resolveProject } from '../project-resolver';
import {
  renderSourceAdded,
  renderSources,
  renderSourceTypes,
  renderSyncRun,
  renderSyncStarted,
} from '../render';
import { PROJECT_ARGUMENT_DESCRIPTION, type ToolContext } from '../tool-context';
import { runTool, toolResult } from '../tool-result';
import { TroveErrorCode } from '@trove/domain';

/** Skipped items a sync run result lists (a first sync of a big workspace may skip thousands). */
const MAX_SKIPPED = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A source's id, from its id or its exact name within the project. */
async function resolveSourceId(
  client: TroveOperations,
  source: string,
  project: string | undefined,
): Promise<string> {
  if (UUID.test(source) && project === undefined) return source;
  const { id: projectId } = await resolveProject(client, project);
  const { sources } = await client.request(SourcesDocument, { projectId });
  const match =
    sources.find((candidate) => candidate.id === source) ??
    sources.find((candidate) => candidate.name === source) ??
    sources.find((candidate) => candidate.name.toLowerCase() === source.toLowerCase());
  if (!match) {
    const names = sources.map((candidate) => `"${candidate.name}" (${candidate.id})`).join(', ');
    throw new TroveApiError(
      `no source "${source}" in this project; its sources: ${names || 'none'}`,
      TroveErrorCode.SourceNotFound,
    );
  }
  return match.id;
}

export function registerSourceTools(server: McpServer, { client, log }: ToolContext): void {
  server.registerTool(
    'list_sources',
    {
      title: 'List the sources of a project',
      description:
        'Lists where a project’s documents come from besides direct uploads (one source per workspace, folder, site or repository; list_source_types names the kinds), ' +
        'with their status and last sync. Use it to find the source to pass to sync_source. Never returns a token (only a hint).',
      inputSchema: { project: z.string().optional().describe(PROJECT_ARGUMENT_DESCRIPTION) },
      outputSchema: listSourcesOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const project = await resolveProject(client, args.project);
        const { sources } = await client.request(SourcesDocument, { projectId: project.id });
        const result: ListSourcesOutput = {
          projectId: project.id,
          sources: sources.map((source) => ({
            id: source.id,
            name: source.name,
            type: source.type,
            status: source.status,
            createdAt: source.createdAt,
            lastSyncAt: source.lastSyncAt,
            syncIntervalMinutes: source.syncIntervalMinutes,
            tokenHint: source.tokenHint,
            scope: source.summary,
          })),
        };
        return toolResult(result, renderSources(result));
      }, log),
  );

  server.registerTool(
    'list_source_types',
    {
      title: 'List the source types',
      description:
        'Lists the kinds of source a project can sync from with the fields of each type’s `config`: ' +
        'name, kind, whether required or secret, allowed values and ranges, and the JSON Schema; for types that receive webhooks, ' +
        'what an operator sets up (instructions, the URL path, the steps). Read it before add_source.',
      inputSchema: {},
      outputSchema: listSourceTypesOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      runTool(async () => {
        const { sourceTypes } = await client.request(SourceTypesDocument);
        const result: ListSourceTypesOutput = {
          types: sourceTypes.map((info) => ({
            type: info.type,
            label: info.label,
            description: info.description,
            webhook: info.webhook,
            webhookSetup: info.webhookSetup ?? null,
            fields: configFields(info.configSchema, info.secretFields),
            configSchema: (info.configSchema ?? {}) as Record<string, unknown>,
          })),
        };
        return toolResult(result, renderSourceTypes(result));
      }, log),
  );

  server.registerTool(
    'add_source',
    {
      title: 'Add a source',
      description:
        'Adds a source to a project: a place its documents are synced from. `type` is one of those list_source_types lists, ' +
        '`config` an object of that type’s fields (list_source_types gives their names, kinds and ranges). ' +
        'A config the API refuses is an error naming each field at fault. Secrets in config are stored sealed and never returned. ' +
        'Nothing is synced until sync_source. Needs an EDITOR or ADMIN key.',
      inputSchema: {
        type: z.string().min(1).describe('the source type, one of those list_source_types lists; any case'),
        name: z.string().min(1).describe('a name for the source, unique in the project'),
        config: z
          .record(z.unknown())
          .default({})
          .describe('the type’s configuration (see list_source_types)'),
        project: z.string().optional().describe(PROJECT_ARGUMENT_DESCRIPTION),
      },
      outputSchema: addSourceOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    (args) =>
      runTool(async () => {
        const { sourceTypes } = await client.request(SourceTypesDocument);
        const info = sourceTypes.find(
          (candidate) => candidate.type.toLowerCase() === args.type.toLowerCase(),
        );
        if (!info) {
          throw new TroveApiError(
            `unknown source type "${args.type}"; the types are ${sourceTypes.map((t) => t.type).join(', ')} (list_source_types describes their config)`,
            TroveErrorCode.BadRequest,
          );
        }
        // A project id goes to the API as it is: the key's role and scope are checked there.
        const wanted = args.project?.trim();
        const projectId =
          wanted && UUID.test(wanted) ? wanted : (await resolveProject(client, args.project)).id;
        const { addSource: added } = await client.request(AddSourceDocument, {
          input: { projectId, type: info.type, name: args.name, config: args.config },
        });
        const result: AddSourceOutput = {
          id: added.id,
          name: added.name,
          type: added.type,
          status: added.status,
          config: (added.config ?? {}) as Record<string, unknown>,
          secrets: added.secrets,
        };
        return toolResult(result, renderSourceAdded(result));
      }, log),
  );

  server.registerTool(
    'sync_source',
    {
      title: 'Sync a source',
      description:
        'Starts a sync of a source (see list_sources) and returns at once with the run id; follow the run with get_sync_run until it is COMPLETED, FAILED or CANCELLED. ' +
        'INCREMENTAL (default) fetches only what changed since the last sync; FULL re-reads everything and re-ingests what changed; REBUILD re-ingests and re-embeds every item. ' +
        'Needs an EDITOR or ADMIN key.',
      inputSchema: {
        source: z.string().min(1).describe('the source: its id, or its exact name within the project'),
        mode: z.enum(['FULL', 'INCREMENTAL', 'REBUILD']).default('INCREMENTAL'),
        project: z
          .string()
          .optional()
          .describe(
            'the project whose source `source` names (id or exact name); only needed when `source` is a name',
          ),
      },
      outputSchema: syncSourceOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    (args) =>
      runTool(async () => {
        const sourceId = await resolveSourceId(client, args.source, args.project);
        const { syncSource: run } = await client.request(SyncSourceDocument, {
          id: sourceId,
          mode: args.mode,
        });
        const result: SyncSourceOutput = {
          runId: run.id,
          sourceId: run.sourceId,
          mode: run.mode,
          status: run.status,
          startedAt: run.startedAt,
        };
        return toolResult(result, renderSyncStarted(result));
      }, log),
  );

  server.registerTool(
    'get_sync_run',
    {
      title: 'Follow a sync run',
      description:
        'Reports a sync run’s live state: status (RUNNING, COMPLETED, FAILED or CANCELLED), pages seen/ingested/unchanged/skipped/failed/deleted, chunks embedded and reused, ' +
        'the run’s error and the items it skipped with their reasons; while it runs, its stage, rate, ETA and health (STALLED with the reason when it does not move). ' +
        'Poll it every few seconds while `finished` is false.',
      inputSchema: { run_id: z.string().min(1).describe('the run id sync_source returned') },
      outputSchema: syncRunOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(async () => {
        const { syncRun: run } = await client.request(SyncRunDocument, { id: args.run_id });
        if (!run) throw new TroveApiError(`no sync run ${args.run_id}`, TroveErrorCode.SyncRunNotFound);
        const result = toSyncRunOutput(run);
        return toolResult(result, renderSyncRun(result));
      }, log),
  );

  server.registerTool(
    'cancel_sync_run',
    {
      title: 'Cancel a sync run',
      description:
        'Stops a running sync (see get_sync_run): the pages it ingested stay, the next sync ingests the rest; the run ends CANCELLED. ' +
        'Fails with BAD_REQUEST when the run already ended. Needs an EDITOR or ADMIN key.',
      inputSchema: { run_id: z.string().min(1).describe('the run id sync_source returned') },
      outputSchema: syncRunOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args) =>
      runTool(async () => {
        const { cancelSyncRun: run } = await client.request(CancelSyncRunDocument, { id: args.run_id });
        const result = toSyncRunOutput(run);
        return toolResult(result, renderSyncRun(result));
      }, log),
  );
}

/** A run as the sync tools report it. */
function toSyncRunOutput(run: SyncRunFieldsFragment): SyncRunOutput {
  return {
    runId: run.id,
    sourceId: run.sourceId,
    mode: run.mode,
    status: run.status,
    finished: run.status !== 'RUNNING',
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    // The output schema admits no other field (clients check it as JSON Schema).
    progress: syncProgressOutput.parse(run.progress),
    error: run.error,
    warnings: run.warnings ?? [],
    skipped: run.skipped.slice(0, MAX_SKIPPED),
    // A run lists its first skipped items and counts them all.
    skippedCount: Math.max(run.skipped.length, run.progress.pagesSkipped ?? 0),
    stage: run.stage ?? null,
    pagesPerSecond: run.pagesPerSecond ?? null,
    etaSeconds: run.etaSeconds ?? null,
    health: {
      state: run.health.state,
      reason: run.health.reason ?? null,
      message: run.health.message ?? null,
    },
  };
}
