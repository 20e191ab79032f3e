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

  it('reads a toggle under a list item as the item’s child: its paragraph joined, its tags not in the item', () => {
    const chunk = [
      '- Payroll now runs on the last working day.',
      '  <details>',
      '  <summary>Background</summary>',
      '',
      '  The bank needs two working days to settle transfers,',
      '  and salaries arrived late. Fridays were worst.',
      '',
      '  </details>',
      '- Expense claims are paid with the next payroll run.',
      '  - Claims must be approved before the 20th.',
    ].join('\n');
    const units = quotableUnits(chunk);
    expect(units.map(({ kind, text, context }) => [kind, text, context])).toEqual([
      ['list-item', 'Payroll now runs on the last working day.', ''],
      [
        'toggle-child',
        'The bank needs two working days to settle transfers, and salaries arrived late.',
        'Payroll now runs on the last working day. › Background',
      ],
      ['toggle-child', 'Fridays were worst.', 'Payroll now runs on the last working day. › Background'],
      ['list-item', 'Expense claims are paid with the next payroll run.', ''],
      [
        'list-item',
        'Claims must be approved before the 20th.',
        'Expense claims are paid with the next payroll run.',
      ],
    ]);
    const fridays = units.find((u) => u.text === 'Fridays were worst.')!;
    expect(chunk.slice(fridays.start, fridays.start + fridays.text.length)).toBe(fridays.text);
  });

  it('joins a paragraph indented under a list item into sentences', () => {
    // After a blank line: the lines right under an item without one continue the item itself.
    const units = quotableUnits('- Write the postmortem\n\n  Within 48 hours of the\n  incident. Blameless.');
    expect(units.map((u) => [u.kind, u.text, u.context])).toEqual([
      ['list-item', 'Write the postmortem', ''],
      ['list-item', 'Within 48 hours of the incident.', 'Write the postmortem'],
      ['list-item', 'Blameless.', 'Write the postmortem'],
    ]);
  });
});
