import { describe, expect, it } from 'vitest';
import type { EmbeddingProvider } from '@trove/domain';
import { extractSentences, type ExtractivePassage, givesReason, withMarker } from './extractive';
import { BagOfWordsEmbedder, bagOfWords } from './fakes.testing';
import { contentWords } from './text';

const passage = (text: string, marker = 1): ExtractivePassage => ({
  marker,
  documentId: `doc_${marker}`,
  position: 0,
  text,
});

async function quote(question: string, passages: ExtractivePassage[], count = 1, said?: string) {
  const sentences = await extractSentences(
    question,
    bagOfWords(question),
    passages,
    new BagOfWordsEmbedder(),
    count,
    undefined,
    said,
  );
  return sentences.map((s) => s.text);
}

const FIRMWARE = [
  'All firmware settings live in config.h and are fixed when the firmware is built.',
  '',
  '```c',
  '#define SAMPLE_INTERVAL_MS 250',
  '#define UPLINK_BAUD_RATE 115200',
  '#define MAX_SEND_RETRIES 7',
  '#define WATCHDOG_TIMEOUT_S 45',
  '```',
].join('\n');

const ENVIRONMENTS = [
  'The sensors publish to one MQTT broker per environment.',
  '',
  '| Environment | MQTT broker | Port |',
  '| --- | --- | --- |',
  '| development | mqtt-dev.lab.internal | 1883 |',
  '| staging | mqtt-stg.lab.internal | 8884 |',
  '| production | mqtt.fleet.example.com | 8883 |',
].join('\n');

const DECISIONS = [
  'Readings go to the SD card first.',
  '',
  '<details>',
  '<summary>Why buffer sensor readings on the SD card?</summary>',
  '',
  'Because the cellular uplink drops for minutes.',
  '',
  '</details>',
].join('\n');

describe('extractSentences', () => {
  it('quotes the code line the question asks about, not the code block’s first lines', async () => {
    expect(
      await quote('How many send retries does the firmware make (MAX_SEND_RETRIES)?', [passage(FIRMWARE)]),
    ).toEqual(['#define MAX_SEND_RETRIES 7']);
    expect(await quote('What is the watchdog timeout of the firmware?', [passage(FIRMWARE)])).toEqual([
      '#define WATCHDOG_TIMEOUT_S 45',
    ]);
  });

  it('quotes the table row asked about with its header row', async () => {
    expect(await quote('Which port does the staging broker listen on?', [passage(ENVIRONMENTS)])).toEqual([
      '| Environment | MQTT broker | Port |\n| staging | mqtt-stg.lab.internal | 8884 |',
    ]);
  });

  it('quotes the reason inside the toggle for a why question, not the decision above it', async () => {
    expect(await quote('Why do we buffer sensor readings on the SD card?', [passage(DECISIONS)])).toEqual([
      'Because the cellular uplink drops for minutes.',
    ]);
    // Asked where, not why, the decision itself is the answer.
    expect(await quote('Where do readings go first?', [passage(DECISIONS)])).toEqual([
      'Readings go to the SD card first.',
    ]);
  });

  it('quotes a nested list item under its parent', async () => {
    const checklist = [
      '- Run the soak test',
      '  - on three boards for at least six hours',
      '- Sign the image with the hardware security module key',
    ].join('\n');
    expect(await quote('How long does the soak test run?', [passage(checklist)])).toEqual([
      'on three boards for at least six hours',
    ]);
  });

  it('quotes a reason a toggle under a list item gives, read under the item and the summary', async () => {
    const changes = [
      '- Payroll now runs on the last working day of the month.',
      '  <details>',
      '  <summary>Background</summary>',
      '',
      '  The bank needs two working days to settle transfers, and salaries paid',
      '  on the 25th arrived late.',
      '',
      '  </details>',
      '- Expense claims are paid with the next payroll run.',
    ].join('\n');
    expect(
      await quote('Why does payroll run on the last working day of the month?', [passage(changes)]),
    ).toEqual([
      'The bank needs two working days to settle transfers, and salaries paid on the 25th arrived late.',
    ]);
  });

  it('reads a unit with no context of its own under its passage’s heading: a toggle child the renderer split off', async () => {
    // As a Notion page renders: the toggle's child is a block of its own, its summary and the item
    // it explains in the heading path, not in the text.
    const item = { ...passage('- The office closes at 18:00 on Fridays.', 1), headingPath: ['Office'] };
    const reason = {
      ...passage('Cleaners need the evening for the carpets.', 2),
      headingPath: ['Office', 'The office closes at 18:00 on Fridays.', 'Why?'],
    };
    expect(await quote('Why does the office close early on Fridays?', [item, reason])).toEqual([
      'Cleaners need the evening for the carpets.',
    ]);
  });

  it('quotes a database row’s property asked about in another language, by meaning', async () => {
    const properties = {
      ...passage(
        ['- Status: Active', '- Account manager: Hannah Schmidt', '- Notice period: 90 days'].join('\n'),
      ),
      title: 'Payroll provider',
      headingPath: [],
    };
    const question = 'Кто менеджер аккаунта у провайдера зарплаты?';
    // Keyed by the stems contentWords gives.
    const embedder = new GlossaryEmbedder({
      менедж: 'manager',
      аккаун: 'account',
      провай: 'provide',
      зарпла: 'payroll',
    });
    const [vector] = await embedder.embed([question]);
    const sentences = await extractSentences(question, vector, [properties], embedder, 1);
    expect(sentences.map((s) => s.text)).toEqual(['Account manager: Hannah Schmidt']);
  });
});

describe('extractSentences across languages', () => {
  /** Cosines as a multilingual embedder gives them: a little higher for a text in the question's language. */
  class BiasedEmbedder implements EmbeddingProvider {
    readonly dimensions = 2;
    readonly modelId = 'fake:biased';
    constructor(private readonly cosines: Record<string, number>) {}
    async embed(texts: string[]): Promise<number[][]> {
      return texts.map((t) => {
        const c = Object.entries(this.cosines).find(([k]) => t.includes(k))?.[1] ?? 0;
        return [c, Math.sqrt(1 - c * c)];
      });
    }
    ping(): Promise<void> {
      return Promise.resolve();
    }
  }

  it('does not let a sentence in the question’s language outrank the answer in another by the language alone', async () => {
    const office = passage('- Получить пропуск на ресепшене.', 1);
    const payroll = passage('- If she does not reply, write to support@lohnwerk.example.', 2);
    const embedder = new BiasedEmbedder({ пропуск: 0.9, support: 0.87 });
    const sentences = await extractSentences(
      'Куда писать, если менеджер не ответил?',
      [1, 0],
      [office, payroll],
      embedder,
      1,
    );
    expect(sentences.map((s) => s.text)).toEqual([
      'If she does not reply, write to support@lohnwerk.example.',
    ]);
  });
});

describe('extractSentences in a thread', () => {
  const QUESTION = 'How do I request a parking permit at the Novosibirsk office?';
  const PASSAGES = [
    passage(
      'Staff of the Novosibirsk office request a parking permit through the facilities bot with the command /parking-nsk. ' +
        'Permits for the courtyard lot are renewed every six months.',
      1,
    ),
    passage(
      'Staff of the Berlin office park in the Kantstrasse garage. Request a parking permit from the ' +
        'reception desk on the ground floor; a permit is valid for one year.',
      2,
    ),
    passage(
      'The Novosibirsk office is at Krasny Prospekt 17, on the fourth floor. ' +
        'Visitors to the Novosibirsk office sign in at the front desk of the Novosibirsk office.',
      3,
    ),
  ];
  /** An earlier answer as the thread holds it: heading, then each quote with its marker. */
  const answered = (quotes: string[]) =>
    `Quoted from your documents (no language model wrote this answer):\n\n${quotes
      .map((q, i) => withMarker(q, i + 1))
      .join('\n')}`;

  it('keeps the best unit though the thread said it, and gives the other places to units not said yet', async () => {
    const alone = await quote(QUESTION, PASSAGES, 3);
    const [best] = await quote(QUESTION, PASSAGES, 1);
    expect(best).toContain('/parking-nsk');
    const followUp = await quote(QUESTION, PASSAGES, 3, answered(alone));
    expect(followUp).toContain(best);
    expect(followUp.filter((q) => alone.includes(q))).toEqual([best]);
    expect(followUp).toHaveLength(3);
  });

  it('quotes the best unit alone rather than nothing or the thread again when every unit was said', async () => {
    const everything = await quote(QUESTION, PASSAGES, 20);
    const [best] = await quote(QUESTION, PASSAGES, 1);
    expect(await quote(QUESTION, PASSAGES, 3, answered(everything))).toEqual([best]);
  });
});

describe('givesReason', () => {
  it('finds a reason said in words, in a toggle, or under a heading that announces one', () => {
    expect(givesReason({ kind: 'sentence', text: 'Paper stopped, since the post lost two.' }, '')).toBe(true);
    expect(givesReason({ kind: 'sentence', text: 'Потому что мест всего двадцать.' }, '')).toBe(true);
    expect(givesReason({ kind: 'sentence', text: '因为上行链路经常中断。' }, '')).toBe(true);
    expect(givesReason({ kind: 'toggle-child', text: 'The bank needs two days.' }, '')).toBe(true);
    expect(givesReason({ kind: 'sentence', text: 'С 8 ГБ сборка шла двадцать минут.' }, 'Обоснование')).toBe(
      true,
    );
    expect(givesReason({ kind: 'sentence', text: 'The office closes at 18:00.' }, 'Opening hours')).toBe(
      false,
    );
  });
});

/**
 * A bag-of-words embedder that first translates the words of its glossary: two texts in different
 * languages that mean the same get a high cosine, as with the multilingual model, with no shared word.
 */
class GlossaryEmbedder implements EmbeddingProvider {
  readonly dimensions = new BagOfWordsEmbedder().dimensions;
  readonly modelId = 'fake:glossary';

  constructor(private readonly glossary: Record<string, string>) {}

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) =>
      bagOfWords(
        contentWords(text)
          .map((w) => this.glossary[w] ?? w)
          .join(' '),
      ),
    );
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }
}
