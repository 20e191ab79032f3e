import { describe, expect, it } from 'vitest';
import type { AnswerRetention } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { AnswerRetentionPurge } from './answer-retention';

class FakeRetention implements AnswerRetention {
  cutoffs: Date[] = [];
  fail = false;
  deleteAnswersBefore(before: Date) {
    this.cutoffs.push(before);
    return this.fail
      ? Promise.reject(new Error('catalog down'))
      : Promise.resolve({ threads: 1, answers: 2 });
  }
}

const config = (retentionDays?: number) =>
  ({ answerRecords: retentionDays === undefined ? undefined : { retentionDays } }) as Pick<
    ApiConfig,
    'answerRecords'
  >;
const NOW = Date.parse('2026-11-27T12:00:00Z');

describe('answer retention', () => {
  it('deletes what is older than TROVE_ANSWER_RETENTION_DAYS (90 when unset)', async () => {
    const catalog = new FakeRetention();
    expect(await new AnswerRetentionPurge(catalog, config(30)).purge(NOW)).toEqual({
      threads: 1,
      answers: 2,
    });
    await new AnswerRetentionPurge(catalog, config()).purge(NOW);
    expect(catalog.cutoffs.map((d) => d.toISOString())).toEqual([
      '2026-10-28T12:00:00.000Z',
      '2026-08-29T12:00:00.000Z',
    ]);
  });

  it('keeps everything with 0, and survives a failing catalog (tried again at the next round)', async () => {
    const catalog = new FakeRetention();
    expect(await new AnswerRetentionPurge(catalog, config(0)).purge(NOW)).toBeUndefined();
    expect(catalog.cutoffs).toEqual([]);
    catalog.fail = true;
    expect(await new AnswerRetentionPurge(catalog, config(7)).purge(NOW)).toBeUndefined();
    expect(catalog.cutoffs).toHaveLength(1);
  });
});
