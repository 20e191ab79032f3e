import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatStamp, replaceSections, type SectionStamp, sizedHeading } from './benchmarks-file';
import { withMark } from './benchmarks-stale';

const FIXTURE = readFileSync(join(__dirname, 'fixtures', 'benchmarks.md'), 'utf8');
const STAMP: SectionStamp = {
  command: 'npm run bench:notion-requests',
  commit: 'abcdef0',
  date: '2026-11-26',
  machine: '2 cores, 24 GiB, linux x64',
};

/** The file cut at its `## ` headings: the header, then each section's exact text by heading. */
function sections(file: string): Map<string, string> {
  const parts = file.split(/\n(?=## )/);
  return new Map(parts.map((part, i) => [i === 0 ? '(header)' : part.slice(0, part.indexOf('\n')), part]));
}

function expectOthersUnchanged(before: string, after: string, written: string[]): void {
  const old = sections(before);
  const now = sections(after);
  for (const [heading, text] of old) {
    if (!written.includes(heading)) expect(now.get(heading), heading).toBe(text);
  }
  expect([...now.keys()].filter((h) => !written.includes(h))).toEqual(
    [...old.keys()].filter((h) => !written.includes(h)),
  );
}

describe('replaceSections (BENCHMARKS.md, section by section)', () => {
  it('rewrites one section under its heading and stamp, and leaves every other byte as it was', () => {
    const heading = '## Notion API requests per page';
    const after = replaceSections(
      FIXTURE,
      [{ heading, body: '| source | requests |\n| --- | --- |\n| all | 700 |\n' }],
      STAMP,
    );
    expectOthersUnchanged(FIXTURE, after, [heading]);
    expect(sections(after).get(heading)).toBe(
      `${heading}\n\n${formatStamp(STAMP)}\n\n| source | requests |\n| --- | --- |\n| all | 700 |\n`,
    );
    expect(after.slice(0, FIXTURE.indexOf(heading))).toBe(FIXTURE.slice(0, FIXTURE.indexOf(heading)));
  });

  it('replaces a section in the middle, sub-headings included, up to the next "## " heading only', () => {
    const heading = '## Ingestion: pipeline vs raw embedding';
    const after = replaceSections(FIXTURE, [{ heading, body: 'New figures.' }], STAMP);
    expectOthersUnchanged(FIXTURE, after, [heading]);
    expect(after).not.toContain('A sub-heading stays inside its section');
    expect(after).toContain(`${heading}\n\n${formatStamp(STAMP)}\n\nNew figures.\n\n## Retrieval evaluation`);
  });

  it('matches headings as whole lines: a heading that prefixes another takes only its own section', () => {
    const heading = '## Retrieval evaluation (npm run eval): beir_scifact';
    const after = replaceSections(FIXTURE, [{ heading, body: '| HYBRID | 0.720 |' }], STAMP);
    expectOthersUnchanged(FIXTURE, after, [heading]);
    expect(after).toContain('| HYBRID | 0.741 |');
    expect(after).not.toContain('| HYBRID | 0.712 |');
  });

  it('appends a section it does not find, at the end, in the order given', () => {
    const a = '## Catalog (PostgreSQL)';
    const b = '## Files (PDF, EPUB, MkDocs)';
    const after = replaceSections(
      FIXTURE,
      [
        { heading: a, body: 'A' },
        { heading: b, body: 'B' },
      ],
      STAMP,
    );
    expectOthersUnchanged(FIXTURE, after, [a, b]);
    expect(after.endsWith(`${a}\n\n${formatStamp(STAMP)}\n\nA\n\n${b}\n\n${formatStamp(STAMP)}\n\nB\n`)).toBe(
      true,
    );
  });

  it("drops a section's stale mark: the command's run rewrites the section whole", () => {
    const heading = '## Notion API requests per page';
    const marked = withMark(
      sections(FIXTURE).get(heading)!,
      '> **Stale:** later commits changed what it measures — re-run `npm run bench:notion-requests`.',
    );
    const file = FIXTURE.replace(sections(FIXTURE).get(heading)!, marked);
    expect(file).toContain('> **Stale:**');
    const after = replaceSections(file, [{ heading, body: 'New figures.' }], STAMP);
    expect(after).not.toContain('> **Stale:**');
    expect(sections(after).get(heading)).toBe(`${heading}\n\n${formatStamp(STAMP)}\n\nNew figures.\n`);
  });

  it('writing the same figures again changes nothing', () => {
    const section = { heading: '## Notion API requests per page', body: 'Same.' };
    const once = replaceSections(FIXTURE, [section], STAMP);
    expect(replaceSections(once, [section], STAMP)).toBe(once);
  });

  it('refuses a heading that is not one "## " line, and a heading the file holds twice', () => {
    expect(() => replaceSections(FIXTURE, [{ heading: '## Two\nlines', body: '' }], STAMP)).toThrow(
      /one "## " line/,
    );
    expect(() =>
      replaceSections(FIXTURE, [{ heading: 'Notion API requests per page', body: '' }], STAMP),
    ).toThrow();
    const twice = `${FIXTURE}\n## Notion API requests per page\n\nagain\n`;
    expect(() =>
      replaceSections(twice, [{ heading: '## Notion API requests per page', body: '' }], STAMP),
    ).toThrow(/twice/);
  });
});

describe('sizedHeading', () => {
  it('says "(sizes changed: …)" when the command line sizes the run otherwise than its defaults', () => {
    const lane = '## Search during an import: the query lane';
    expect(sizedHeading(lane, 'npm run bench:query-lane')).toBe(lane);
    expect(sizedHeading(lane, 'BENCH_QUERY_LANE_QUERIES=70 npm run bench:query-lane')).toBe(lane);
    expect(
      sizedHeading(
        lane,
        'BENCH_QUERY_LANE_QUERIES=10 BENCH_QUERY_LANE_DOCUMENTS=10 npm run bench:query-lane',
      ),
    ).toBe(`${lane} (sizes changed: BENCH_QUERY_LANE_QUERIES 10, BENCH_QUERY_LANE_DOCUMENTS 10)`);
    // A heading that names its changed sizes already keeps its own words.
    const scale = '## Scale: x (sizes changed: --abstracts 100)';
    expect(sizedHeading(scale, 'npm run bench:scale -- --parts small --abstracts 100')).toBe(scale);
  });
});
