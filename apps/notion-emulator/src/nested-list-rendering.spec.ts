import { createNotionClient, NotionReader, renderPage } from '@trove/connector-notion';
import type { ParsedDocument } from '@trove/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IDS, DEFAULT_TOKEN, defaultWorkspace } from './default-workspace';
import { NotionEmulator } from './emulator';
import { apiClient, type Json } from './spec-client';

/**
 * The default workspace's Runbooks page nests every kind of block under list items; read through
 * the official client and rendered as the connector does, none of their content may be lost.
 */
describe('the default workspace: blocks nested under list items', () => {
  let emulator: NotionEmulator;
  let api: ReturnType<typeof apiClient>;
  let doc: ParsedDocument;

  beforeAll(async () => {
    emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
    const baseUrl = await emulator.start();
    api = apiClient(baseUrl);
    const client = createNotionClient({ token: DEFAULT_TOKEN, baseUrl, requestsPerSecond: 1000 });
    doc = renderPage(await new NotionReader(client).snapshot(DEFAULT_IDS.runbooks));
  });
  afterAll(() => emulator.stop());

  /** The child blocks of the first list item on the Runbooks page whose text starts with `text`. */
  const childrenOfItem = async (text: string): Promise<Json[]> => {
    const items = (await api.children(DEFAULT_IDS.runbooks)).filter(
      (b) =>
        ['bulleted_list_item', 'numbered_list_item', 'to_do'].includes(b.type) &&
        b[b.type].rich_text.map((r: Json) => r.plain_text).join('') === text,
    );
    expect(items).toHaveLength(1);
    return api.children(items[0].id);
  };

  it('has a code block, table, synced block, toggle, column list, bookmark and paragraph under list items', async () => {
    const shapes = await Promise.all(
      [
        'Open an incident channel',
        'Severity levels',
        'Incident commander',
        'Frequently asked',
        'Dashboards to watch',
        'Read the postmortem guide',
        'Close the incident',
      ].map(async (item) => (await childrenOfItem(item)).map((b) => b.type)),
    );
    expect(shapes).toEqual([
      ['code'],
      ['table'],
      ['synced_block'],
      ['toggle'],
      ['column_list'],
      ['bookmark'],
      ['paragraph'],
    ]);
    const [paragraph] = await childrenOfItem('Close the incident');
    expect(paragraph.has_children).toBe(true);
  });

  it('keeps their content when the page is read and rendered like the connector does', () => {
    const text = doc.blocks.map((b) => b.text).join('\n\n');
    const incident = doc.blocks.filter((b) => b.headingPath[0] === 'Incident checklist');
    const code = incident.filter((b) => b.kind === 'code');
    expect(code.map((b) => [b.codeLanguage, b.text.split('\n')[0]])).toEqual([
      ['bash', '```bash'],
      ['shell', '```shell'],
    ]);
    expect(code[0].text).toContain('/incident open --sev 2');
    expect(incident.find((b) => b.kind === 'table')?.text).toContain(
      '| SEV-1 | Search is down for every project |',
    );
    expect(text).toContain('  The incident commander rota changes weekly');
    expect(doc.blocks.find((b) => b.text.startsWith('Type /page secondary'))?.headingPath.slice(-1)).toEqual([
      'How do I page the secondary?',
    ]);
    expect(text).toContain('  Ingest lag stays under five minutes\n  Search p95 latency stays under 300 ms');
    expect(text).toContain(
      '- [ ] Read the postmortem guide\n  [Postmortem culture: learning from failure](https://sre.google/sre-book/postmortem-culture/)',
    );
    expect(text).toContain(
      '- Close the incident\n  Write the postmortem within 48 hours.\n    Blameless: describe systems, not people.',
    );
    expect(text).toContain(
      '- Roll back a bad release\n  - Find the last good release\n    1. Check the deploy log\n      - [ ] Pick the release tag',
    );
    expect(code[1].text).toContain('git tag --sort=-creatordate');
  });

  it('anchors each block that stands on its own at its own Notion block id', async () => {
    const [codeBlock] = await childrenOfItem('Open an incident channel');
    const [table] = await childrenOfItem('Severity levels');
    expect(doc.blocks.find((b) => b.kind === 'code' && b.text.includes('/incident open'))?.anchor).toBe(
      codeBlock.id,
    );
    expect(doc.blocks.find((b) => b.kind === 'table' && b.text.includes('SEV-1'))?.anchor).toBe(table.id);
  });
});
