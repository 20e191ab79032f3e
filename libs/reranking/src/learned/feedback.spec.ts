import { describe, expect, it } from 'vitest';
import { FEEDBACK_EXPORT_FORMAT, type FeedbackExportLine, type FeedbackHit } from '@trove/domain';
import { FEATURE_NAMES } from './features';
import {
  feedbackGate,
  feedbackPairs,
  feedbackTrainingGroups,
  parseFeedbackLines,
  tallyFeedback,
} from './feedback';

/** A hit whose features are all `value` but `terms.coverage`, which is `coverage`. */
function hit(chunkId: string, rank: number, coverage = 0, value = 0.5): FeedbackHit {
  return {
    chunkId,
    documentId: `doc-${chunkId}`,
    rank,
    score: 1 / rank,
    features: Object.fromEntries(
      FEATURE_NAMES.map((name) => [name, name === 'terms.coverage' ? coverage : value]),
    ),
  };
}

const HITS = [hit('a', 1), hit('b', 2), hit('c', 3), hit('d', 4)];

let nextId = 0;
function vote(
  chunkId: string | undefined,
  value: 1 | -1,
  overrides: Partial<FeedbackExportLine> = {},
): FeedbackExportLine {
  nextId += 1;
  return {
    format: FEEDBACK_EXPORT_FORMAT,
    id: `fbk_${nextId}`,
    answerId: 'ans_1',
    projectId: 'p',
    question: 'Does vitamin D help?',
    mode: 'EXTRACTIVE',
    target: chunkId ? 'passage' : 'answer',
    ...(chunkId ? { chunkId, documentId: `doc-${chunkId}` } : {}),
    vote: value,
    hits: HITS,
    featureNames: [...FEATURE_NAMES],
    createdAt: new Date(Date.UTC(2026, 10, 27) + nextId * 1000).toISOString(),
    ...overrides,
  };
}

describe('parseFeedbackLines', () => {
  it('reads the lines of an export, skipping blank ones', () => {
    const lines = [vote('a', 1), vote(undefined, -1, { comment: 'wrong year' })];
    const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n\n`;
    expect(parseFeedbackLines(text)).toEqual(lines);
  });

  it('names the line and the field that is wrong', () => {
    const good = JSON.stringify(vote('a', 1));
    expect(() => parseFeedbackLines(`${good}\n{"format":`, 'votes.jsonl')).toThrow('votes.jsonl:2: not JSON');
    expect(() => parseFeedbackLines(JSON.stringify({ ...vote('a', 1), vote: 2 }))).toThrow(/:1: vote/);
    expect(() => parseFeedbackLines(JSON.stringify({ ...vote('a', 1), format: 'other/1' }))).toThrow(
      /:1: format/,
    );
    const noChunk = JSON.stringify({ ...vote('a', 1), chunkId: undefined });
    expect(() => parseFeedbackLines(noChunk)).toThrow(/chunkId: a passage vote names/);
  });
});

describe('tallyFeedback', () => {
  it('sums the votes of one (question, passage) to a net sign: a burst counts once, contradictions cancel', () => {
    const { questions, tally } = tallyFeedback([
      ...Array.from({ length: 10 }, () => vote('a', 1)),
      vote('b', 1),
      vote('b', -1),
      vote('c', -1),
      vote('c', -1),
      vote('c', 1),
      vote(undefined, 1),
    ]);
    expect(questions).toHaveLength(1);
    expect(questions[0].votes).toEqual(
      new Map([
        ['a', 1],
        ['c', -1],
      ]),
    );
    expect(tally).toMatchObject({ lines: 16, answerVotes: 1, passageVotes: 15, questions: 1, cancelled: 1 });
  });

  it('groups answers of the same question however it was typed, by what was searched', () => {
    const { questions } = tallyFeedback([
      vote('a', 1),
      vote('a', -1, { answerId: 'ans_2', question: '  does VITAMIN d   help ' }),
      vote('b', 1, {
        answerId: 'ans_3',
        question: 'and for children?',
        standaloneQuestion: 'Does vitamin D help?',
      }),
    ]);
    expect(questions).toHaveLength(1);
    expect(questions[0].votes).toEqual(new Map([['b', 1]]));
  });

  it("keeps the latest answer's hits and drops votes on passages it no longer has", () => {
    const { questions, tally } = tallyFeedback([
      vote('d', 1, { createdAt: '2026-11-01T00:00:00.000Z' }),
      vote('a', -1, {
        answerId: 'ans_2',
        hits: [hit('a', 1), hit('b', 2)],
        createdAt: '2026-11-02T00:00:00.000Z',
      }),
    ]);
    expect(questions[0].hits.map((h) => h.chunkId)).toEqual(['a', 'b']);
    expect(questions[0].votes).toEqual(new Map([['a', -1]]));
    expect(tally.notInLatestHits).toBe(1);
  });

  it('leaves out votes recorded with other features than this code computes', () => {
    const { questions, tally } = tallyFeedback([
      vote('a', 1, { featureNames: ['old.feature'] }),
      vote('b', 1, { answerId: 'ans_2', hits: [{ ...hit('b', 1), features: {} }] }),
    ]);
    expect(questions).toEqual([]);
    expect(tally.otherFeatures).toBe(2);
  });
});

describe('feedbackPairs', () => {
  it('puts an up-voted passage above the down-voted and the unvoted below it, a down-voted one below all', () => {
    const [question] = tallyFeedback([vote('b', 1), vote('c', -1)]).questions;
    const pairs = feedbackPairs(question, { unvotedWeight: 0.5 });
    const named = pairs.map((p) => `${HITS[p.better].chunkId}>${HITS[p.worse].chunkId}:${p.weight}`);
    expect(named.sort()).toEqual(['a>c:0.5', 'b>c:1', 'b>d:0.5', 'd>c:0.5']);
  });

  it('makes one training group per question with something to compare', () => {
    const { questions } = tallyFeedback([vote('a', 1), vote('b', 1, { answerId: 'x', question: 'other' })]);
    const groups = feedbackTrainingGroups(questions);
    expect(groups).toHaveLength(2);
    expect(groups[0].features[0]).toHaveLength(FEATURE_NAMES.length);
    expect(feedbackTrainingGroups(tallyFeedback([vote('d', 1, { hits: [hit('d', 1)] })]).questions)).toEqual(
      [],
    );
  });
});

describe('feedbackGate', () => {
  it('passes a model at most 0.005 below the one without feedback and refuses one further below', () => {
    const better = feedbackGate({ withoutFeedback: 0.7, withFeedback: 0.71 });
    expect(better.pass).toBe(true);
    expect(better.change).toBeCloseTo(0.01);
    expect(feedbackGate({ withoutFeedback: 0.7, withFeedback: 0.695 }).pass).toBe(true);
    expect(feedbackGate({ withoutFeedback: 0.7, withFeedback: 0.694 }).pass).toBe(false);
  });
});
