import { describe, expect, it } from 'vitest';
import type { LineCell } from './layout';
import { tableGrid, tableMarkdown } from './table-grid';

/**
 * A cell of `text` starting at x, 5 points per character; a double space is a gap wider than a
 * word space (10 points), between two stretches of the cell.
 */
function cell(text: string, x: number): LineCell {
  let at = x;
  const parts = text.split('  ').map((stretch) => {
    const part = { text: stretch, x0: at, x1: at + stretch.length * 5 };
    at = part.x1 + 10;
    return part;
  });
  return { text: parts.map((p) => p.text).join(' '), x0: x, x1: at - 10, parts };
}

/** A figure right-aligned at x1. */
const figure = (text: string, x1: number): LineCell => cell(text, x1 - text.length * 5);

// A statistics table: a row of group labels over two groups, a row of column names (two of them
// set so close that they form one cell), then rows of figures, one with an empty cell.
const rows: LineCell[][] = [
  [cell('Sales', 130), cell('Returns', 240)],
  [cell('Region', 10), cell('Online', 100), cell('Retail', 160), cell('Online  Retail', 220)],
  [cell('North', 10), figure('1,200', 130), figure('800', 190), figure('12', 240), figure('7', 290)],
  [cell('South', 10), figure('950', 130), figure('15', 240), figure('3', 290)],
];

describe('tableGrid', () => {
  it('folds the group labels and column names into one header row, each label over its own columns', () => {
    expect(tableGrid(rows)?.header).toEqual([
      'Region',
      'Sales Online',
      'Sales Retail',
      'Returns Online',
      'Returns Retail',
    ]);
  });

  it('places each figure in its column and keeps an empty cell empty', () => {
    expect(tableGrid(rows)?.body).toEqual([
      ['North', '1,200', '800', '12', '7'],
      ['South', '950', '', '15', '3'],
    ]);
  });

  it('takes the first row as the header of a table of words', () => {
    const words = [
      [cell('Name', 10), cell('Role', 100), cell('Office', 200)],
      [cell('Ann', 10), cell('Engineer', 100), cell('Berlin', 200)],
      [cell('Boris', 10), cell('Designer', 100), cell('Moscow', 200)],
    ];
    expect(tableGrid(words)).toEqual({
      header: ['Name', 'Role', 'Office'],
      body: [
        ['Ann', 'Engineer', 'Berlin'],
        ['Boris', 'Designer', 'Moscow'],
      ],
    });
  });
});

describe('tableMarkdown', () => {
  it('writes the rows as read when a cell bridges two columns (a label run into its figure)', () => {
    const bridged = [
      [cell('Item', 10), cell('Hours', 100), cell('Cost', 200)],
      [cell('Revise', 10), cell('2', 100), cell('$170', 200)],
      [cell('Install and verify 1', 10), cell('$85', 200)],
      [cell('Remove', 10), cell('3', 100), cell('$255', 200)],
    ];
    expect(tableMarkdown(bridged).split('\n')).toEqual([
      'Item | Hours | Cost',
      'Revise | 2 | $170',
      'Install and verify 1 | $85',
      'Remove | 3 | $255',
    ]);
  });

  it('writes a pipe table with a separator, so the chunker repeats its header row', () => {
    expect(tableMarkdown(rows).split('\n').slice(0, 3)).toEqual([
      '| Region | Sales Online | Sales Retail | Returns Online | Returns Retail |',
      '| --- | --- | --- | --- | --- |',
      '| North | 1,200 | 800 | 12 | 7 |',
    ]);
  });

  it('escapes a pipe inside a cell', () => {
    const piped = [
      [cell('Key', 10), cell('Value', 100)],
      [cell('a|b', 10), cell('1', 100)],
      [cell('c', 10), cell('2', 100)],
    ];
    expect(tableMarkdown(piped)).toContain('| a\\|b | 1 |');
  });
});
