import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IDS, defaultWorkspace } from './default-workspace';
import { NotionEmulator } from './emulator';
import { PROPERTY_TYPES } from './workspace';
import { apiClient, type Json } from './spec-client';

describe('Notion emulator: databases, data sources and queries', () => {
  let emulator: NotionEmulator;
  let api: ReturnType<typeof apiClient>;
  let clock = new Date('2026-11-20T08:00:00.000Z');

  beforeAll(async () => {
    emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity, now: () => clock });
    api = apiClient(await emulator.start());
  });
  afterAll(() => emulator.stop());

  it('walks database → data sources → rows from a child_database block', async () => {
    const hubChildren = await api.children(DEFAULT_IDS.hub);
    const block = hubChildren.find((b) => b.type === 'child_database');
    expect(block).toMatchObject({
      child_database: { title: 'Вопросы для собеседования' },
      has_children: false,
    });

    const database = await api.get(`/v1/databases/${block.id}`);
    expect(database.status).toBe(200);
    expect(database.body).toMatchObject({
      object: 'database',
      id: block.id,
      is_inline: true,
      in_trash: false,
      parent: { type: 'page_id', page_id: DEFAULT_IDS.hub },
      data_sources: [{ id: DEFAULT_IDS.questionsDataSource, name: 'Вопросы' }],
    });
    expect(database.body.title[0].plain_text).toBe('Вопросы для собеседования');

    const ds = await api.get(`/v1/data_sources/${database.body.data_sources[0].id}`);
    expect(ds.status).toBe(200);
    expect(ds.body).toMatchObject({
      object: 'data_source',
      id: DEFAULT_IDS.questionsDataSource,
      parent: { type: 'database_id', database_id: block.id },
      database_parent: { type: 'page_id', page_id: DEFAULT_IDS.hub },
    });
    for (const [name, prop] of Object.entries<Json>(ds.body.properties)) {
      expect(prop.name).toBe(name);
      expect(prop[prop.type]).toBeTypeOf('object');
    }
    expect(ds.body.properties['Вопрос']).toMatchObject({ id: 'title', type: 'title', title: {} });
    expect(ds.body.properties['Связанные вопросы'].relation).toMatchObject({
      data_source_id: DEFAULT_IDS.questionsDataSource,
      database_id: DEFAULT_IDS.questionsDatabase,
      type: 'single_property',
    });
    expect(ds.body.properties['Статус'].status.groups.map((g: Json) => g.name)).toEqual([
      'To-do',
      'In progress',
      'Complete',
    ]);

    const rows = await api.collect(`/v1/data_sources/${DEFAULT_IDS.questionsDataSource}/query`, {
      page_size: 25,
    });
    expect(rows.length).toBeGreaterThanOrEqual(60);
    for (const row of rows) {
      expect(row).toMatchObject({
        object: 'page',
        parent: {
          type: 'data_source_id',
          data_source_id: DEFAULT_IDS.questionsDataSource,
          database_id: DEFAULT_IDS.questionsDatabase,
        },
      });
      expect(Object.keys(row.properties)).toEqual(Object.keys(ds.body.properties));
    }
  });

  it('returns every property type with Notion’s value shapes', async () => {
    const seen = new Set<string>();
    for (const dsId of [DEFAULT_IDS.questionsDataSource, DEFAULT_IDS.adrDataSource]) {
      const rows = await api.collect(`/v1/data_sources/${dsId}/query`);
      for (const row of rows) for (const value of Object.values<Json>(row.properties)) seen.add(value.type);
    }
    expect([...seen].sort()).toEqual([...PROPERTY_TYPES].sort());

    const summary = (await api.get(`/v1/pages/${DEFAULT_IDS.summaryQuestionRow}`)).body.properties;
    expect(summary['Связанные вопросы'].relation).toHaveLength(25);
    expect(summary['Связанные вопросы'].has_more).toBe(true);
    expect(summary['Число связанных'].rollup).toEqual({ type: 'number', number: 30, function: 'count' });
    expect(summary['Повторить'].date).toEqual({
      start: '2026-10-25T09:00:00.000+03:00',
      end: '2026-10-25T12:00:00.000+03:00',
      time_zone: 'Europe/Moscow',
    });
    expect(summary['Приоритет'].formula).toEqual({ type: 'string', string: 'Высокий' });
    expect(summary['ID'].unique_id.prefix).toBe('Q');
    expect(summary['Автор'].people[0]).toMatchObject({
      object: 'user',
      type: 'person',
      name: 'Анна Смирнова',
    });
    const hosted = summary['Материалы'].files.find((f: Json) => f.type === 'file');
    expect(hosted.file.url).toMatch(
      /^https:\/\/prod-files-secure\.s3\.us-west-2\.amazonaws\.com\/.+X-Amz-Signature=/,
    );
    expect(Date.parse(hosted.file.expiry_time)).toBeGreaterThan(clock.getTime());

    const adr = (await api.get(`/v1/pages/${DEFAULT_IDS.adr007Row}`)).body.properties;
    expect(adr['Owner email'].email).toMatch(/@trove\.example$/);
    expect(adr['On-call phone'].phone_number).toMatch(/^\+7/);
    expect(adr['Question topics'].rollup.type).toBe('array');
    expect(adr['Question topics'].rollup.array[0]).toMatchObject({
      type: 'select',
      select: { name: 'Базы данных' },
    });
    expect(adr['Number'].unique_id).toEqual({ prefix: 'ADR', number: 7 });
  });

  it('pages through all relations with the page property endpoint', async () => {
    const propId = (await api.get(`/v1/pages/${DEFAULT_IDS.summaryQuestionRow}`)).body.properties[
      'Связанные вопросы'
    ].id;
    const first = await api.get(
      `/v1/pages/${DEFAULT_IDS.summaryQuestionRow}/properties/${propId}?page_size=20`,
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', type: 'property_item', has_more: true });
    expect(first.body.results[0]).toMatchObject({ object: 'property_item', type: 'relation' });
    const second = await api.get(
      `/v1/pages/${DEFAULT_IDS.summaryQuestionRow}/properties/${propId}?start_cursor=${first.body.next_cursor}`,
    );
    expect(first.body.results.length + second.body.results.length).toBe(30);
  });

  it('filters rows by last_edited_time (on_or_after, after) and sorts by it', async () => {
    const path = `/v1/data_sources/${DEFAULT_IDS.questionsDataSource}/query`;
    const all = await api.collect(path);
    const times = all.map((r) => r.last_edited_time).sort();
    const pivot = times[Math.floor(times.length / 2)];

    const onOrAfter = await api.collect(path, {
      filter: { timestamp: 'last_edited_time', last_edited_time: { on_or_after: pivot } },
    });
    expect(onOrAfter.length).toBe(times.filter((t) => t >= pivot).length);
    expect(onOrAfter.every((r) => r.last_edited_time >= pivot)).toBe(true);

    const after = await api.collect(path, {
      filter: { timestamp: 'last_edited_time', last_edited_time: { after: pivot } },
    });
    expect(after.length).toBe(times.filter((t) => t > pivot).length);

    const ascending = await api.collect(path, {
      sorts: [{ timestamp: 'last_edited_time', direction: 'ascending' }],
    });
    expect(ascending.map((r) => r.last_edited_time)).toEqual(times);
    const descending = await api.collect(path, {
      sorts: [{ timestamp: 'last_edited_time', direction: 'descending' }],
    });
    expect(descending.map((r) => r.last_edited_time)).toEqual([...times].reverse());
  });

  it('sees a freshly edited row with an on_or_after filter on the previous high-water mark', async () => {
    const path = `/v1/data_sources/${DEFAULT_IDS.questionsDataSource}/query`;
    const all = await api.collect(path, {
      sorts: [{ timestamp: 'last_edited_time', direction: 'descending' }],
    });
    const highWater = all[0].last_edited_time;
    const target = all[all.length - 1];
    clock = new Date('2026-11-21T09:41:27.345Z');
    emulator.setRowProperty(target.id, 'Решено', true);
    const changed = await api.collect(path, {
      filter: { timestamp: 'last_edited_time', last_edited_time: { after: highWater } },
    });
    expect(changed.map((r) => r.id)).toEqual([target.id]);
    expect(changed[0].last_edited_time).toBe('2026-11-21T09:41:00.000Z');
    expect(changed[0].properties['Решено'].checkbox).toBe(true);
  });

  it('supports compound and property filters, and rejects unsupported ones with 400 validation_error', async () => {
    const path = `/v1/data_sources/${DEFAULT_IDS.questionsDataSource}/query`;
    const hard = await api.collect(path, {
      filter: {
        and: [
          { property: 'Сложность', number: { greater_than_or_equal_to: 4 } },
          { property: 'Тема', select: { equals: 'Алгоритмы' } },
        ],
      },
    });
    expect(hard.length).toBeGreaterThan(0);
    for (const row of hard) {
      expect(row.properties['Сложность'].number).toBeGreaterThanOrEqual(4);
      expect(row.properties['Тема'].select.name).toBe('Алгоритмы');
    }
    const unsupported = await api.post(path, {
      filter: { property: 'Приоритет', formula: { string: { equals: 'x' } } },
    });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.code).toBe('validation_error');
    const unknownProp = await api.post(path, { filter: { property: 'Nope', checkbox: { equals: true } } });
    expect(unknownProp.body.code).toBe('validation_error');
    const badSort = await api.post(path, {
      sorts: [{ timestamp: 'last_edited_time', direction: 'sideways' }],
    });
    expect(badSort.body.code).toBe('validation_error');
  });

  it('exposes a database with two data sources and search finds data sources, not databases', async () => {
    const tracker = await api.get(`/v1/databases/${DEFAULT_IDS.trackerDatabase}`);
    expect(tracker.body.data_sources).toEqual([
      { id: DEFAULT_IDS.tasksDataSource, name: 'Tasks' },
      { id: DEFAULT_IDS.bugsDataSource, name: 'Bugs' },
    ]);
    const sources = await api.collect('/v1/search', { filter: { property: 'object', value: 'data_source' } });
    expect(sources.every((s) => s.object === 'data_source')).toBe(true);
    expect(sources.map((s) => s.id).sort()).toEqual(
      [
        DEFAULT_IDS.questionsDataSource,
        DEFAULT_IDS.adrDataSource,
        DEFAULT_IDS.tasksDataSource,
        DEFAULT_IDS.bugsDataSource,
      ].sort(),
    );
    const legacy = await api.post('/v1/search', { filter: { property: 'object', value: 'database' } });
    expect(legacy.status).toBe(400);
    expect(legacy.body.code).toBe('validation_error');
  });
});
