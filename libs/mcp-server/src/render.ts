import type {
  AskOutput,
  ChunkView,
  ConfigOutput,
  DocumentView,
  GetChunkOutput,
  GetDocumentOutput,
  ListDocumentsOutput,
  ListProjectsOutput,
  ListThreadsOutput,
  AddSourceOutput,
  ListSourcesOutput,
  ListSourceTypesOutput,
  SearchOutput,
  SetConfigOutput,
  SyncRunOutput,
  SyncSourceOutput,
} from './output-schemas';
import { describeField, hitOrigin } from '@trove/api-client';

// Short text renderings of the tools' results, for models that read `content` rather than
// `structuredContent`: enough to act on (ids, links, status), never the whole payload.

/** Characters of a hit's text shown in a rendering. */
export const EXCERPT_CHARS = 300;

/** `text` on one line, cut at a word boundary near `max` characters. */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * `Title › Heading › Subheading` (the title alone when there is no heading); a heading that
 * repeats the document's title (`title` unless given apart) is left out.
 */
export function location(head: string, headingPath: string[], title = head): string {
  return [head, ...headingPath.filter((heading) => heading && heading !== title)].join(' › ');
}

export function renderSearch(result: SearchOutput): string {
  if (result.hits.length === 0) return `No hits for "${result.query}" (${result.mode}).`;
  const lines = [`${result.hits.length} hits for "${result.query}" (${result.mode}):`, ''];
  for (const hit of result.hits) {
    // Where it comes from first (source › document), then the place in the document.
    lines.push(`${hit.rank}. ${location(hitOrigin(hit), hit.headingPath, hit.title)}`);
    lines.push(`   ${hit.citationUrl ?? '(no citation link)'}`);
    lines.push(`   chunk ${hit.chunkId} · document ${hit.documentId} · score ${hit.score.toFixed(4)}`);
    lines.push(`   ${excerpt(hit.text)}`);
    if (hit.context.length > 0)
      lines.push(`   (+${hit.context.length} neighbouring chunks in structuredContent)`);
    lines.push('');
  }
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n').trimEnd();
}

export function renderAsk(result: AskOutput): string {
  const lines = result.standaloneQuestion ? [`Searched for: ${result.standaloneQuestion}`, ''] : [];
  lines.push(result.answer);
  if (result.insufficientContext)
    lines.push('', '(insufficient context: the knowledge base does not hold the answer)');
  if (result.citations.length > 0) {
    lines.push('', 'Citations:');
    for (const citation of result.citations) {
      lines.push(
        `[${citation.marker}] ${location(citation.title, citation.headingPath)} — ${citation.citationUrl ?? `chunk ${citation.chunkId}`}`,
      );
    }
  }
  lines.push('', `mode ${result.mode}${result.model ? ` (${result.model})` : ''}`);
  if (result.threadId) lines.push(`thread ${result.threadId} (pass it as \`thread\` to ask a follow-up)`);
  return lines.join('\n');
}

export function renderThreads(result: ListThreadsOutput): string {
  const lines: string[] = [];
  if (result.thread) {
    lines.push(`${result.thread.title} (${result.thread.id})`);
    for (const turn of result.thread.turns) {
      lines.push('', `${turn.position}. ${turn.question}`);
      if (turn.standaloneQuestion) lines.push(`   searched for: ${turn.standaloneQuestion}`);
      lines.push(turn.answer);
      for (const citation of turn.citations) {
        lines.push(
          `[${citation.marker}] ${location(citation.title, citation.headingPath)}${citation.citationUrl ? ` — ${citation.citationUrl}` : ''}`,
        );
      }
    }
    lines.push('');
  }
  if (result.threads.length === 0) lines.push(`No threads of this key in project ${result.projectId}.`);
  for (const thread of result.threads) {
    lines.push(`- ${thread.title} (${thread.id}): ${thread.turnCount} turns, last ${thread.updatedAt}`);
  }
  return lines.join('\n');
}

export function renderProjects(result: ListProjectsOutput): string {
  if (result.projects.length === 0) return 'This API key reaches no project.';
  return result.projects
    .map(
      (project) =>
        `- ${project.name} (${project.id}): ${project.documentCount} documents, ${project.chunkCount} chunks${project.status === 'ACTIVE' ? '' : `, ${project.status}`}`,
    )
    .join('\n');
}

export function renderSources(result: ListSourcesOutput): string {
  if (result.sources.length === 0)
    return `Project ${result.projectId} has no sources (files uploaded directly only).`;
  return result.sources
    .map(
      (source) =>
        `- ${source.name} (${source.id}): ${source.type}, ${source.status}, ${source.scope}; last sync ${source.lastSyncAt ?? 'never'}`,
    )
    .join('\n');
}

export function renderSourceTypes(result: ListSourceTypesOutput): string {
  return result.types
    .map((info) =>
      [
        `${info.type} — ${info.label}: ${info.description}`,
        ...info.fields.map((field) => `  - ${describeField(field)}`),
        ...(info.webhookSetup
          ? [
              `  webhook at ${info.webhookSetup.path}: ${info.webhookSetup.instructions}`,
              ...info.webhookSetup.steps.map((step, i) => `    ${i + 1}. ${step}`),
            ]
          : []),
      ].join('\n'),
    )
    .join('\n');
}

export function renderSourceAdded(result: AddSourceOutput): string {
  const secrets = result.secrets.map((secret) => `, ${secret.field} ${secret.hint}`).join('');
  return `Added ${result.type} source "${result.name}" (${result.id})${secrets}. Start its first sync with sync_source.`;
}

export function renderSyncStarted(result: SyncSourceOutput): string {
  return `Started a ${result.mode} sync of source ${result.sourceId}: run ${result.runId} (${result.status}). Follow it with get_sync_run.`;
}

export function renderSyncRun(run: SyncRunOutput): string {
  const p = run.progress;
  const lines = [
    `Run ${run.runId} (${run.mode}) of source ${run.sourceId}: ${run.status}${run.finishedAt ? ` at ${run.finishedAt}` : ''}`,
    `pages: ${p.pagesSeen} seen, ${p.pagesIngested} ingested, ${p.pagesUnchanged} unchanged, ${p.pagesSkipped} skipped, ${p.pagesFailed} failed, ${p.pagesDeleted} deleted; chunks: ${p.chunksEmbedded} embedded, ${p.chunksReused} reused`,
  ];
  if (!run.finished) {
    const pace = [
      run.stage?.toLowerCase(),
      run.pagesPerSecond != null ? `${Number(run.pagesPerSecond.toFixed(1))} pages/s` : undefined,
      run.etaSeconds != null ? `about ${run.etaSeconds} s to go` : undefined,
    ].filter(Boolean);
    if (pace.length) lines.push(`now: ${pace.join(', ')}`);
    if (run.health.state === 'STALLED')
      lines.push(
        `STALLED: no progress for a while (${[run.health.reason, run.health.message].filter(Boolean).join(': ')})`,
      );
  }
  if (run.error) lines.push(`error: ${run.error.code}: ${run.error.message}`);
  for (const warning of run.warnings) lines.push(`warning: ${warning}`);
  for (const skipped of run.skipped.slice(0, 10))
    lines.push(
      `skipped ${skipped.title ? `${skipped.title} (${skipped.id})` : skipped.id}: ${skipped.reason}`,
    );
  if (run.skippedCount > 10) lines.push(`… ${run.skippedCount - 10} more skipped`);
  if (!run.finished) lines.push('Still running: call get_sync_run again in a few seconds.');
  return lines.join('\n');
}

function documentLine(document: DocumentView): string {
  const name =
    document.title && document.title !== document.fileName
      ? `${document.title} [${document.fileName}]`
      : document.fileName;
  const error = document.error ? ` — ${document.error.code}: ${document.error.message}` : '';
  return `- ${name} (${document.id}): ${document.status}, ${document.chunkCount} chunks${error}`;
}

export function renderDocuments(result: ListDocumentsOutput): string {
  const lines = [`${result.documents.length} of ${result.totalCount} documents:`];
  lines.push(...result.documents.map(documentLine));
  if (result.nextCursor) lines.push(`More: call list_documents with after "${result.nextCursor}".`);
  return lines.join('\n');
}

export function renderDocument(result: GetDocumentOutput): string {
  const document = result.document;
  const lines = [
    documentLine(document).slice(2),
    `${document.mediaType}, ${document.sizeBytes} bytes${document.pageCount ? `, ${document.pageCount} pages` : ''}${document.language ? `, language ${document.language}` : ''}`,
    `updated ${document.updatedAt}; indexed ${document.indexedAt ?? 'not yet'}`,
  ];
  if (document.url) lines.push(`source: ${document.url}`);
  for (const warning of document.warnings) lines.push(`warning: ${warning}`);
  lines.push(`read it whole: ${document.resourceUri}`);
  return lines.join('\n');
}

function chunkBlock(chunk: ChunkView, marker: string): string {
  return `${marker} #${chunk.position} ${location(chunk.title, chunk.headingPath)}${chunk.citationUrl ? ` — ${chunk.citationUrl}` : ''}\n${chunk.text}`;
}

export function renderChunk(result: GetChunkOutput): string {
  return [
    ...result.before.map((chunk) => chunkBlock(chunk, '(before)')),
    chunkBlock(result.chunk, '>>> chunk'),
    ...result.after.map((chunk) => chunkBlock(chunk, '(after)')),
  ].join('\n\n');
}

export function renderConfig(config: ConfigOutput): string {
  const secret = (value: { set: boolean; masked: string | null }) =>
    value.set ? (value.masked ?? 'set') : 'not set';
  return [
    `version ${config.version}${config.overridden.length ? `; changed through the API: ${config.overridden.join(', ')}` : ''}`,
    `search: fusion ${config.search.fusion} (rrfK ${config.search.rrfK}, convex weight ${config.search.convexVectorWeight}, ${config.search.convexNormalization})`,
    `rerank: ${config.rerank.provider}, ${config.rerank.candidates} candidates${config.rerank.model ? `, model ${config.rerank.model}` : ''}, api key ${secret(config.rerank.apiKey)}`,
    `answers: topK ${config.answers.topK}, threshold ${config.answers.threshold}, fallback ${config.answers.fallbackMode}`,
    `llm: ${config.llm.provider}${config.llm.model ? ` ${config.llm.model}` : ''}${config.llm.baseUrl ? ` at ${config.llm.baseUrl}` : ''}, api key ${secret(config.llm.apiKey)}`,
    `chunking: ${config.chunking.targetTokens} tokens, overlap ${config.chunking.overlapTokens}`,
    `embedding: ${config.embedding.modelId} (${config.embedding.dimensions} dimensions)`,
    ...config.warnings.map((warning) => `warning: ${warning}`),
  ].join('\n');
}

export function renderConfigChanged(result: SetConfigOutput): string {
  return [
    `Settings changed: version ${result.version}.`,
    `Changed through the API: ${result.overridden.join(', ') || 'nothing'}`,
    ...result.warnings.map((warning) => `warning: ${warning}`),
  ].join('\n');
}
