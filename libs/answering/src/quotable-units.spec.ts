import { describe, expect, it } from 'vitest';
import { quotableUnits } from './quotable-units';

const CHUNK = [
  'All tunables live in `config.h` and are fixed at build time. Change them only through a',
  'reviewed pull request.',
  '',
  '```c',
  '#define SAMPLE_INTERVAL_MS 250',
  '#define MAX_SEND_RETRIES 7',
  '```',
  '',
  '| Environment | Port |',
  '| --- | --- |',
  '| staging | 8884 |',
  '| production | 8883 |',
  '',
  '- Run the soak test',
  '  - on three boards for at least six hours.',
  '',
  'We store readings on the SD card.',
  '',
  '<details>',
  '<summary>Why buffer readings?</summary>',
  '',
  'Because the uplink drops for minutes',
  'at a time.',
  '',
  '</details>',
].join('\n');

describe('quotableUnits', () => {
  it('cuts a chunk into sentences, code lines, table rows with their header, list items and toggle children', () => {
    expect(quotableUnits(CHUNK).map(({ kind, text, context }) => [kind, text, context])).toEqual([
      ['sentence', 'All tunables live in `config.h` and are fixed at build time.', ''],
      // A sentence wrapped over two lines is one unit.
      ['sentence', 'Change them only through a reviewed pull request.', ''],
      ['code-line', '#define SAMPLE_INTERVAL_MS 250', 'Change them only through a reviewed pull request.'],
      ['code-line', '#define MAX_SEND_RETRIES 7', 'Change them only through a reviewed pull request.'],
      ['table-row', '| Environment | Port |\n| staging | 8884 |', '| Environment | Port |'],
      ['table-row', '| Environment | Port |\n| production | 8883 |', '| Environment | Port |'],
      ['list-item', 'Run the soak test', ''],
      ['list-item', 'on three boards for at least six hours.', 'Run the soak test'],
      ['sentence', 'We store readings on the SD card.', ''],
      ['toggle-child', 'Because the uplink drops for minutes at a time.', 'Why buffer readings?'],
    ]);
  });

  it('keeps units in reading order with their offsets in the chunk', () => {
    const units = quotableUnits(CHUNK);
    const code = units.find((u) => u.text === '#define MAX_SEND_RETRIES 7')!;
    expect(CHUNK.slice(code.start, code.start + code.text.length)).toBe(code.text);
    expect(units.map((u) => u.start)).toEqual([...units.map((u) => u.start)].sort((a, b) => a - b));
  });

  it('quotes rows of a table without a header line on their own', () => {
    expect(quotableUnits('| a | 1 |\n| b | 2 |').map((u) => u.text)).toEqual(['| a | 1 |', '| b | 2 |']);
  });
});
