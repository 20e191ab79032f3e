import { floorToMinute, normalizeId } from './ids';
import { validationError } from './errors';
import type { DataSourceNode, PageNode, PropertyNode } from './model';
import { pageTitle, plainText, propertyValueBody, samePropertyId, type RenderContext } from './render';

type Obj = Record<string, unknown>;

const MAX_PAGE_SIZE = 100;

/** `page_size`: 1–100, default 100. `where` is `body` for POST endpoints and `query` for GET ones. */
export function parsePageSize(raw: unknown, where: 'body' | 'query'): number {
  if (raw === undefined || raw === null) return MAX_PAGE_SIZE;
  const value =
    where === 'query' && typeof raw === 'string' && /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  const shown = JSON.stringify(raw);
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw validationError(
      `${where} failed validation: ${where}.page_size should be a number, instead was \`${shown}\`.`,
    );
  }
  if (value > MAX_PAGE_SIZE) {
    throw validationError(
      `${where} failed validation: ${where}.page_size should be ≤ \`100\`, instead was \`${value}\`.`,
    );
  }
  if (value < 1) {
    throw validationError(
      `${where} failed validation: ${where}.page_size should be ≥ \`1\`, instead was \`${value}\`.`,
    );
  }
  return value;
}

/**
 * One page of a list. Like Notion's, a cursor names the first item of the next page; it is meant to be
 * passed back as it is, never parsed.
 */
export function paginate<T extends { id: string }>(
  items: T[],
  startCursor: unknown,
  pageSize: number,
): { results: T[]; next_cursor: string | null; has_more: boolean } {
  let start = 0;
  if (startCursor !== undefined && startCursor !== null) {
    const id = typeof startCursor === 'string' ? normalizeId(startCursor) : undefined;
    start = id ? items.findIndex((item) => item.id === id) : -1;
    if (start < 0) throw validationError(`The start_cursor provided is invalid: ${String(startCursor)}`);
  }
  const results = items.slice(start, start + pageSize);
  const next = items[start + pageSize];
  return { results, next_cursor: next ? next.id : null, has_more: !!next };
}

// ---- search --------------------------------------------------------------------------------------

export type SearchHit =
  { kind: 'page'; id: string; page: PageNode } | { kind: 'data_source'; id: string; ds: DataSourceNode };

/** POST /v1/search: titles of shared pages and data sources, not in the trash, by last edit. */
export function search(ctx: RenderContext, body: Obj): SearchHit[] {
  const { model } = ctx;
  const query = body.query ?? '';
  if (typeof query !== 'string') throw validationError(bodyMessage('query', 'a string', query));
  let only: 'page' | 'data_source' | undefined;
  if (body.filter !== undefined && body.filter !== null) {
    const filter = body.filter as Obj;
    if (typeof filter !== 'object' || filter.property !== 'object') {
      throw validationError(bodyMessage('filter.property', '`"object"`', filter?.property));
    }
    if (filter.value !== 'page' && filter.value !== 'data_source') {
      throw validationError(bodyMessage('filter.value', '`"page"` or `"data_source"`', filter.value));
    }
    only = filter.value;
  }
  let direction = -1;
  if (body.sort !== undefined && body.sort !== null) {
    const sort = body.sort as Obj;
    if (sort.property === 'relevance') direction = -1;
    else if (sort.timestamp !== 'last_edited_time') {
      throw validationError(bodyMessage('sort.timestamp', '`"last_edited_time"`', sort.timestamp));
    } else if (sort.direction !== 'ascending' && sort.direction !== 'descending') {
      throw validationError(bodyMessage('sort.direction', '`"ascending"` or `"descending"`', sort.direction));
    } else direction = sort.direction === 'ascending' ? 1 : -1;
  }
  const needle = query.trim().toLowerCase();
  const hits: (SearchHit & { edited: number; created: number; title: string })[] = [];
  if (only !== 'data_source') {
    for (const page of model.pages.values()) {
      if (!model.pageVisible(page.id) || model.pageTrashed(page.id)) continue;
      hits.push({
        kind: 'page',
        id: page.id,
        page,
        edited: page.edited,
        created: page.created,
        title: pageTitle(ctx, page),
      });
    }
  }
  if (only !== 'page') {
    for (const ds of model.dataSources.values()) {
      const database = model.databases.get(ds.databaseId)!;
      if (!model.databaseVisible(database.id) || model.databaseTrashed(database.id)) continue;
      hits.push({
        kind: 'data_source',
        id: ds.id,
        ds,
        edited: database.edited,
        created: database.created,
        title: ds.name,
      });
    }
  }
  return hits
    .filter((hit) => hit.title.toLowerCase().includes(needle))
    .sort(
      (a, b) =>
        direction * (floorToMinute(a.edited) - floorToMinute(b.edited)) ||
        b.created - a.created ||
        a.id.localeCompare(b.id),
    )
    .map((hit): SearchHit =>
      hit.kind === 'page'
        ? { kind: 'page', id: hit.id, page: hit.page }
        : { kind: 'data_source', id: hit.id, ds: hit.ds },
    );
}

function bodyMessage(path: string, expected: string, actual: unknown): string {
  return `body failed validation: body.${path} should be ${expected}, instead was \`${JSON.stringify(actual)}\`.`;
}

// ---- data source query ---------------------------------------------------------------------------

type Predicate = (row: PageNode) => boolean;

/** POST /v1/data_sources/{id}/query: rows not in the trash, filtered and sorted. */
export function queryDataSource(ctx: RenderContext, ds: DataSourceNode, body: Obj): PageNode[] {
  if (body.in_trash === true || body.archived === true) {
    throw validationError(
      'The Notion emulator does not support querying rows in the trash (in_trash: true).',
    );
  }
  if (body.result_type !== undefined && body.result_type !== 'page') {
    throw validationError(
      bodyMessage('result_type', '`"page"` (data source results are not emulated)', body.result_type),
    );
  }
  const predicate =
    body.filter === undefined || body.filter === null
      ? () => true
      : compileFilter(ctx, ds, body.filter, 'filter', 0);
  const comparator = compileSorts(ctx, ds, body.sorts);
  return ds.rows
    .map((id) => ctx.model.pages.get(id)!)
    .filter((row) => !row.inTrash && ctx.model.pageVisible(row.id))
    .filter(predicate)
    .sort((a, b) => comparator(a, b) || b.created - a.created || a.id.localeCompare(b.id));
}

function findProperty(ds: DataSourceNode, nameOrId: unknown, what: 'filter' | 'sort'): PropertyNode {
  const prop = ds.properties.find(
    (p) => p.name === nameOrId || (typeof nameOrId === 'string' && samePropertyId(nameOrId, p.id)),
  );
  if (!prop) throw validationError(`Could not find ${what} property with name or id: ${String(nameOrId)}`);
  return prop;
}

function compileFilter(
  ctx: RenderContext,
  ds: DataSourceNode,
  filter: unknown,
  path: string,
  depth: number,
): Predicate {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw validationError(bodyMessage(path, 'an object', filter));
  }
  const f = filter as Obj;
  if ('and' in f || 'or' in f) {
    const key = 'and' in f ? 'and' : 'or';
    const list = f[key];
    if (!Array.isArray(list)) throw validationError(bodyMessage(`${path}.${key}`, 'an array', list));
    if (depth >= 2) throw validationError(`${path}: compound filters can be nested at most two levels deep.`);
    const parts = list.map((sub, i) => compileFilter(ctx, ds, sub, `${path}.${key}[${i}]`, depth + 1));
    return key === 'and' ? (row) => parts.every((p) => p(row)) : (row) => parts.some((p) => p(row));
  }
  if ('timestamp' in f) {
    const ts = f.timestamp;
    if (ts !== 'created_time' && ts !== 'last_edited_time') {
      throw validationError(bodyMessage(`${path}.timestamp`, '`"created_time"` or `"last_edited_time"`', ts));
    }
    const test = compileDateCondition(ctx, f[ts], `${path}.${ts}`);
    return (row) => test(floorToMinute(ts === 'created_time' ? row.created : row.edited));
  }
  if (!('property' in f))
    throw validationError(`${path}: expected a property, timestamp, "and" or "or" filter.`);
  const prop = findProperty(ds, f.property, 'filter');
  const keys = Object.keys(f).filter((k) => k !== 'property' && k !== 'type');
  if (keys.length !== 1)
    throw validationError(`${path}: expected exactly one condition for property "${prop.name}".`);
  const key = keys[0];
  const compatible = key === prop.type || (key === 'rich_text' && prop.type === 'title');
  if (!compatible) {
    throw validationError(
      `${path}: the ${key} condition does not apply to property "${prop.name}", which is of type ${prop.type}.`,
    );
  }
  const condition = f[key];
  const value = (row: PageNode) => propertyValueBody(ctx, row, prop);
  switch (prop.type) {
    case 'title':
    case 'rich_text':
    case 'url':
    case 'email':
    case 'phone_number':
      return textCondition(condition, `${path}.${key}`, (row) => {
        const v = value(row)[prop.type];
        return Array.isArray(v)
          ? v.map((item) => (item as Obj).plain_text).join('')
          : ((v as string | null) ?? '');
      });
    case 'number':
    case 'unique_id':
      return numberCondition(condition, `${path}.${key}`, (row) =>
        prop.type === 'number' ? (value(row).number as number | null) : (row.uniqueId ?? null),
      );
    case 'checkbox': {
      const c = oneCondition(condition, `${path}.checkbox`, ['equals', 'does_not_equal']);
      if (typeof c.value !== 'boolean')
        throw validationError(bodyMessage(`${path}.checkbox.${c.op}`, 'a boolean', c.value));
      return (row) => (value(row).checkbox === c.value) === (c.op === 'equals');
    }
    case 'select':
    case 'status': {
      const c = oneCondition(condition, `${path}.${key}`, [
        'equals',
        'does_not_equal',
        'is_empty',
        'is_not_empty',
      ]);
      const name = (row: PageNode) =>
        ((value(row)[prop.type] as Obj | null)?.name as string | undefined) ?? null;
      if (c.op === 'is_empty') return (row) => name(row) === null;
      if (c.op === 'is_not_empty') return (row) => name(row) !== null;
      return (row) => (name(row) === c.value) === (c.op === 'equals');
    }
    case 'multi_select':
    case 'people':
    case 'relation':
    case 'created_by':
    case 'last_edited_by': {
      const c = oneCondition(condition, `${path}.${key}`, [
        'contains',
        'does_not_contain',
        'is_empty',
        'is_not_empty',
      ]);
      const members = (row: PageNode): string[] => {
        const v = value(row)[prop.type];
        if (prop.type === 'multi_select') return (v as Obj[]).map((o) => String(o.name));
        if (prop.type === 'created_by' || prop.type === 'last_edited_by') return [String((v as Obj).id)];
        if (prop.type === 'relation')
          return ((row.properties[prop.name] as string[] | undefined) ?? []).map((id) => normalizeId(id)!);
        return (v as Obj[]).map((u) => String(u.id));
      };
      const wanted = prop.type === 'multi_select' ? c.value : normalizeId(String(c.value));
      if (c.op === 'is_empty') return (row) => members(row).length === 0;
      if (c.op === 'is_not_empty') return (row) => members(row).length > 0;
      return (row) => members(row).includes(wanted as string) === (c.op === 'contains');
    }
    case 'date':
    case 'created_time':
    case 'last_edited_time': {
      const test = compileDateCondition(ctx, condition, `${path}.${key}`);
      return (row) => {
        const v = value(row)[prop.type];
        const start = prop.type === 'date' ? ((v as Obj | null)?.start as string | undefined) : (v as string);
        return test(start === undefined ? null : Date.parse(start));
      };
    }
    case 'files': {
      const c = oneCondition(condition, `${path}.files`, ['is_empty', 'is_not_empty']);
      return (row) => ((value(row).files as unknown[]).length === 0) === (c.op === 'is_empty');
    }
    default:
      throw validationError(
        `${path}: the Notion emulator does not support filtering on ${prop.type} properties.`,
      );
  }
}

function oneCondition(condition: unknown, path: string, allowed: string[]): { op: string; value: unknown } {
  if (typeof condition !== 'object' || condition === null)
    throw validationError(bodyMessage(path, 'an object', condition));
  const entries = Object.entries(condition);
  if (entries.length !== 1 || !allowed.includes(entries[0][0])) {
    throw validationError(`${path} should have exactly one of ${allowed.map((a) => `\`${a}\``).join(', ')}.`);
  }
  const [op, value] = entries[0];
  if ((op === 'is_empty' || op === 'is_not_empty') && value !== true) {
    throw validationError(bodyMessage(`${path}.${op}`, '`true`', value));
  }
  return { op, value };
}

function textCondition(condition: unknown, path: string, text: (row: PageNode) => string): Predicate {
  const ops = [
    'equals',
    'does_not_equal',
    'contains',
    'does_not_contain',
    'starts_with',
    'ends_with',
    'is_empty',
    'is_not_empty',
  ];
  const c = oneCondition(condition, path, ops);
  if (c.op !== 'is_empty' && c.op !== 'is_not_empty' && typeof c.value !== 'string') {
    throw validationError(bodyMessage(`${path}.${c.op}`, 'a string', c.value));
  }
  const needle = String(c.value).toLowerCase();
  return (row) => {
    const t = text(row).toLowerCase();
    switch (c.op) {
      case 'equals':
        return t === needle;
      case 'does_not_equal':
        return t !== needle;
      case 'contains':
        return t.includes(needle);
      case 'does_not_contain':
        return !t.includes(needle);
      case 'starts_with':
        return t.startsWith(needle);
      case 'ends_with':
        return t.endsWith(needle);
      case 'is_empty':
        return t === '';
      default:
        return t !== '';
    }
  };
}

function numberCondition(condition: unknown, path: string, num: (row: PageNode) => number | null): Predicate {
  const ops = [
    'equals',
    'does_not_equal',
    'greater_than',
    'less_than',
    'greater_than_or_equal_to',
    'less_than_or_equal_to',
    'is_empty',
    'is_not_empty',
  ];
  const c = oneCondition(condition, path, ops);
  if (c.op !== 'is_empty' && c.op !== 'is_not_empty' && typeof c.value !== 'number') {
    throw validationError(bodyMessage(`${path}.${c.op}`, 'a number', c.value));
  }
  const x = c.value as number;
  return (row) => {
    const n = num(row);
    if (c.op === 'is_empty') return n === null;
    if (c.op === 'is_not_empty') return n !== null;
    if (n === null) return c.op === 'does_not_equal';
    switch (c.op) {
      case 'equals':
        return n === x;
      case 'does_not_equal':
        return n !== x;
      case 'greater_than':
        return n > x;
      case 'less_than':
        return n < x;
      case 'greater_than_or_equal_to':
        return n >= x;
      default:
        return n <= x;
    }
  };
}

const DAY = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Date conditions. A date-time operand compares instants; a date-only operand compares whole UTC days
 * (`after: "2026-10-05"` means from 2026-10-06). Relative conditions use the emulator's clock.
 */
function compileDateCondition(
  ctx: RenderContext,
  condition: unknown,
  path: string,
): (ms: number | null) => boolean {
  const absolute = ['equals', 'before', 'after', 'on_or_before', 'on_or_after'];
  const relative = ['past_week', 'past_month', 'past_year', 'next_week', 'next_month', 'next_year'];
  const c = oneCondition(condition, path, [...absolute, ...relative, 'is_empty', 'is_not_empty']);
  if (c.op === 'is_empty') return (ms) => ms === null;
  if (c.op === 'is_not_empty') return (ms) => ms !== null;
  if (relative.includes(c.op)) {
    if (typeof c.value !== 'object' || c.value === null || Object.keys(c.value).length > 0) {
      throw validationError(bodyMessage(`${path}.${c.op}`, '`{}`', c.value));
    }
    const span = c.op.endsWith('week') ? 7 * DAY : c.op.endsWith('month') ? 30 * DAY : 365 * DAY;
    const [from, to] = c.op.startsWith('past') ? [ctx.now - span, ctx.now] : [ctx.now, ctx.now + span];
    return (ms) => ms !== null && ms >= from && ms <= to;
  }
  if (typeof c.value !== 'string' || Number.isNaN(Date.parse(c.value))) {
    throw validationError(bodyMessage(`${path}.${c.op}`, 'an ISO 8601 date string', c.value));
  }
  const dateOnly = DATE_ONLY.test(c.value);
  const t = Date.parse(dateOnly ? `${c.value}T00:00:00Z` : c.value);
  const [lo, hi] = dateOnly ? [t, t + DAY] : [t, t];
  return (ms) => {
    if (ms === null) return false;
    switch (c.op) {
      case 'equals':
        return dateOnly ? ms >= lo && ms < hi : ms === t;
      case 'before':
        return ms < lo;
      case 'after':
        return dateOnly ? ms >= hi : ms > t;
      case 'on_or_before':
        return dateOnly ? ms < hi : ms <= t;
      default:
        return ms >= lo;
    }
  };
}

function compileSorts(
  ctx: RenderContext,
  ds: DataSourceNode,
  sorts: unknown,
): (a: PageNode, b: PageNode) => number {
  if (sorts === undefined || sorts === null) return () => 0;
  if (!Array.isArray(sorts)) throw validationError(bodyMessage('sorts', 'an array', sorts));
  const keys = sorts.map((sort: unknown, i) => {
    const s = (sort ?? {}) as Obj;
    if (s.direction !== 'ascending' && s.direction !== 'descending') {
      throw validationError(
        bodyMessage(`sorts[${i}].direction`, '`"ascending"` or `"descending"`', s.direction),
      );
    }
    const sign = s.direction === 'ascending' ? 1 : -1;
    if ('timestamp' in s) {
      if (s.timestamp !== 'created_time' && s.timestamp !== 'last_edited_time') {
        throw validationError(
          bodyMessage(`sorts[${i}].timestamp`, '`"created_time"` or `"last_edited_time"`', s.timestamp),
        );
      }
      const ts = s.timestamp;
      return (a: PageNode, b: PageNode) =>
        sign *
        (ts === 'created_time'
          ? floorToMinute(a.created) - floorToMinute(b.created)
          : floorToMinute(a.edited) - floorToMinute(b.edited));
    }
    const prop = findProperty(ds, s.property, 'sort');
    const key = sortKey(ctx, prop);
    return (a: PageNode, b: PageNode) => {
      const [ka, kb] = [key(a), key(b)];
      // Empty values sort last in both directions, as in Notion.
      if (ka === null || kb === null) return ka === kb ? 0 : ka === null ? 1 : -1;
      return sign * compareKeys(ka, kb);
    };
  });
  return (a, b) => {
    for (const key of keys) {
      const c = key(a, b);
      if (c !== 0) return c;
    }
    return 0;
  };
}

function sortKey(ctx: RenderContext, prop: PropertyNode): (row: PageNode) => string | number | null {
  switch (prop.type) {
    case 'title':
    case 'rich_text':
      return (row) => plainText(ctx, row.properties[prop.name] as never) || null;
    case 'url':
    case 'email':
    case 'phone_number':
      return (row) => (row.properties[prop.name] as string | null | undefined) ?? null;
    case 'number':
      return (row) => (row.properties[prop.name] as number | null | undefined) ?? null;
    case 'unique_id':
      return (row) => row.uniqueId ?? null;
    case 'checkbox':
      return (row) => (row.properties[prop.name] === true ? 1 : 0);
    case 'select':
    case 'status':
      return (row) => {
        const index = prop.options.findIndex((o) => o.name === row.properties[prop.name]);
        return index < 0 ? null : index;
      };
    case 'date':
      return (row) => {
        const date = row.properties[prop.name] as { start: string } | null | undefined;
        return date ? Date.parse(DATE_ONLY.test(date.start) ? `${date.start}T00:00:00Z` : date.start) : null;
      };
    case 'created_time':
      return (row) => floorToMinute(row.created);
    case 'last_edited_time':
      return (row) => floorToMinute(row.edited);
    default:
      throw validationError(`The Notion emulator does not support sorting by ${prop.type} properties.`);
  }
}

function compareKeys(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}
