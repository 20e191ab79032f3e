import { type AskStreamResult, hitOrigin, type SearchQuery, type SyncRunQuery } from '@trove/api-client';
import type { Style } from './output';

export type SearchResultView = SearchQuery['search'];
export type SyncRunView = NonNullable<SyncRunQuery['syncRun']>;

/** Columns padded to their widest cell; the header in bold. */
export function renderTable(header: string[], rows: string[][], style: Style): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => visibleLength(row[column] ?? ''))),
  );
  const pad = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1
          ? cell
          : cell + ' '.repeat(Math.max(0, widths[column]! - visibleLength(cell))),
      )
      .join('  ')
      .trimEnd();
  return [style.bold(pad(header)), ...rows.map(pad)];
}

/** Length on screen: colour codes take no room. */
function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '').length;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Text on one line, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** "Title › Heading › Subheading". */
export function breadcrumb(title: string, headingPath: readonly string[]): string {
  const path = headingPath.filter((heading) => heading && heading !== title);
  return [title, ...path].join(' › ');
}

/**
 * Numbered hits, in rank order: where each is (source › document › headings), a snippet (or the
 * passage read around it), its link, and its file and chunk.
 */
export function renderSearchResult(result: SearchResultView, style: Style): string[] {
  if (!result.hits.length) return [style.dim('No hits.')];
  const lines: string[] = [];
  result.hits.forEach((hit, index) => {
    // The number is the rank, the one order: no score beside it (a reranker's is on its own scale,
    // negative as often as not, and the fused one does not give the order). `--json` has both.
    const place = [hitOrigin(hit), ...hit.headingPath.filter((heading) => heading && heading !== hit.title)];
    lines.push(`${style.bold(`${index + 1}.`)} ${style.bold(place.join(' › '))}`);
    if (hit.context?.length) {
      // The neighbours and the hit itself, in reading order.
      const passage = [
        { chunkId: hit.chunkId, position: hit.position, text: hit.text },
        ...hit.context.filter((neighbour) => neighbour.chunkId !== hit.chunkId),
      ].sort((a, b) => a.position - b.position);
      for (const neighbour of passage) {
        const mark = neighbour.chunkId === hit.chunkId ? '>' : ' ';
        lines.push(`   ${mark} ${oneLine(neighbour.text, 200)}`);
      }
    } else {
      lines.push(`   ${oneLine(hit.text, 240)}`);
    }
    if (hit.citationUrl) lines.push(`   ${style.cyan(hit.citationUrl)}`);
    // Recognised from a scan or an image: say so, so a reader checks the original before quoting it.
    const ocr = hit.ocr
      ? `, OCR ${hit.ocrConfidence != null ? `${Math.round(hit.ocrConfidence)}% confidence` : ''}`.trimEnd()
      : '';
    lines.push(style.dim(`   ${hit.fileName ? `${hit.fileName} · ` : ''}chunk ${hit.chunkId}${ocr}`));
    lines.push('');
  });
  lines.push(
    style.dim(
      `${result.hits.length} hit${result.hits.length === 1 ? '' : 's'} in ${result.tookMs} ms${result.reranked ? `, reranked (${result.reranker})` : ''}`,
    ),
  );
  for (const warning of result.warnings ?? []) lines.push(style.yellow(`warning: ${warning}`));
  return lines;
}

/** The numbered sources of an answer, each with its link. */
export function renderCitations(
  result: Pick<AskStreamResult, 'citations' | 'mode' | 'insufficientContext'>,
  style: Style,
): string[] {
  const lines: string[] = [];
  if (result.insufficientContext) {
    lines.push(style.yellow('The indexed documents do not answer this well enough (insufficient context).'));
  }
  if (result.mode === 'EXTRACTIVE' || result.mode === 'TOP_1') {
    lines.push(style.dim(`(${result.mode}: quoted from the sources; no language model wrote this)`));
  }
  if (!result.citations.length) return lines;
  lines.push('', style.bold('Sources'));
  for (const citation of result.citations) {
    lines.push(`  [${citation.marker}] ${breadcrumb(citation.title, citation.headingPath)}`);
    if (citation.citationUrl) lines.push(`      ${style.cyan(citation.citationUrl)}`);
  }
  return lines;
}

/** Pages done so far: every page the run has settled one way or another. */
export function pagesDone(progress: SyncRunView['progress']): number {
  return progress.pagesIngested + progress.pagesUnchanged + progress.pagesSkipped + progress.pagesFailed;
}

/** The final counts of a sync run, on one line. */
export function renderSyncSummary(run: SyncRunView, style: Style): string {
  const p = run.progress;
  const status =
    run.status === 'COMPLETED'
      ? style.green(run.status)
      : run.status === 'FAILED'
        ? style.red(run.status)
        : run.status === 'CANCELLED'
          ? style.yellow(run.status)
          : run.status;
  const counts = `${p.pagesSeen} seen, ${p.pagesIngested} ingested, ${p.pagesUnchanged} unchanged, ${p.pagesSkipped} skipped, ${p.pagesFailed} failed, ${p.pagesDeleted} deleted`;
  return `Sync ${run.id} ${status}: ${counts}${run.error ? ` — ${run.error.message} (${run.error.code})` : ''}`;
}

/** A duration to go, coarse as an ETA should be: `45s`, `3m 20s`, `2h 5m`. */
export function formatEta(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/**
 * Where a running sync is: its stage, rate and ETA, or STALLED with Temporal's reason. Empty for
 * an ended run (its counts say it all).
 */
export function renderRunMotion(
  run: Pick<SyncRunView, 'status' | 'stage' | 'pagesPerSecond' | 'etaSeconds' | 'health'>,
  style: Style,
): string {
  if (run.status !== 'RUNNING') return '';
  if (run.health.state === 'STALLED') {
    const why = [run.health.reason, run.health.message].filter(Boolean).join(': ');
    return style.yellow(`STALLED${why ? ` (${why})` : ''}`);
  }
  const parts = [run.stage ? run.stage.toLowerCase() : 'starting'];
  if (run.pagesPerSecond != null) parts.push(`${Number(run.pagesPerSecond.toFixed(1))} pages/s`);
  if (run.etaSeconds != null) parts.push(`ETA ${formatEta(run.etaSeconds)}`);
  return parts.join(', ');
}

/**
 * Nested settings as `section.key` entries; a secret (`{ set, masked }`) gives only its masked
 * form, never more.
 */
export function flattenSettings(value: unknown, prefix = ''): [string, unknown][] {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) {
    return [[prefix, value ?? null]];
  }
  const record = value as Record<string, unknown>;
  if (typeof record.set === 'boolean' && 'masked' in record) {
    return [[prefix, record.set ? (record.masked ?? '(set)') : null]];
  }
  return Object.entries(record).flatMap(([key, inner]) =>
    flattenSettings(inner, prefix ? `${prefix}.${key}` : key),
  );
}

/** A setting's value for the terminal. */
export function formatSetting(value: unknown): string {
  if (value === null || value === undefined) return '(unset)';
  if (Array.isArray(value)) return value.length ? value.map(String).join(', ') : '(none)';
  return String(value);
}
