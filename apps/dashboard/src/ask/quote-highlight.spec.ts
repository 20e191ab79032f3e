import { describe, expect, it } from 'vitest';
import { highlightQuote } from './quote-highlight';

const quoted = (text: string, quote: string | undefined) =>
  highlightQuote(text, quote)
    .filter((span) => span.quoted)
    .map((span) => span.text);

describe('highlightQuote', () => {
  it('marks the quoted sentence in its chunk and keeps every character of the chunk', () => {
    const text = 'If error rates climb, roll back first.\nInvestigate later. Then post in #incidents.';
    const spans = highlightQuote(text, 'Investigate later.');
    expect(spans.map((s) => s.text).join('')).toBe(text);
    expect(spans).toEqual([
      { text: 'If error rates climb, roll back first.\n', quoted: false },
      { text: 'Investigate later.', quoted: true },
      { text: ' Then post in #incidents.', quoted: false },
    ]);
  });

  it('finds a sentence the chunk wraps over two lines, and list items without their numbers', () => {
    const text =
      '## Rolling back\n\n1. Open the deploy\n   dashboard.\n2. Run `deployctl rollback` and confirm.';
    expect(quoted(text, 'Open the deploy dashboard. Run `deployctl rollback` and confirm.')).toEqual([
      'Open the deploy\n   dashboard.',
      'Run `deployctl rollback` and confirm.',
    ]);
  });

  it('marks a table row quoted with its header line', () => {
    const text = '| Port | Service |\n| --- | --- |\n| 8884 | MQTT |';
    expect(quoted(text, '| Port | Service |\n| 8884 | MQTT |')).toEqual([
      '| Port | Service |',
      '| 8884 | MQTT |',
    ]);
  });

  it('marks nothing for a quote from another chunk of the place, or before the quote is known', () => {
    const text = 'Escalate after 30 minutes.';
    expect(quoted(text, 'A rollback never reverts the schema.')).toEqual([]);
    expect(highlightQuote(text, undefined)).toEqual([{ text, quoted: false }]);
  });
});
