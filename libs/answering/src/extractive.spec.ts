import { describe, expect, it } from 'vitest';
import { extractSentences, type ExtractivePassage } from './extractive';
import { BagOfWordsEmbedder, bagOfWords } from './fakes.testing';

const passage = (text: string, marker = 1): ExtractivePassage => ({
  marker,
  documentId: `doc_${marker}`,
  position: 0,
  text,
});

async function quote(question: string, passages: ExtractivePassage[], count = 1) {
  const sentences = await extractSentences(
    question,
    bagOfWords(question),
    passages,
    new BagOfWordsEmbedder(),
    count,
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
});
