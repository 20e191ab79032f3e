import { describe, expect, it } from 'vitest';
import { answerParts, citedMarkers } from './answer-parts';

// Passages 1 and 2 open one place (cited as 1); 3 is another.
const placeOf = (n: number) => ({ 1: 1, 2: 1, 3: 3 })[n];

describe('answerParts', () => {
  it('cuts the text at its markers, one marker per place', () => {
    const parts = answerParts('Roll back first [1].\nThen escalate [3].', placeOf);
    expect(parts).toEqual([
      { kind: 'text', text: 'Roll back first ' },
      { kind: 'cite', markers: [1] },
      { kind: 'text', text: '.\nThen escalate ' },
      { kind: 'cite', markers: [3] },
      { kind: 'text', text: '.' },
    ]);
  });

  it('merges markers side by side and list numbers that cite one place', () => {
    expect(answerParts('A [1][2] B [2, 3] C [1] [3]', placeOf)).toEqual([
      { kind: 'text', text: 'A ' },
      { kind: 'cite', markers: [1] },
      { kind: 'text', text: ' B ' },
      { kind: 'cite', markers: [1, 3] },
      { kind: 'text', text: ' C ' },
      { kind: 'cite', markers: [1, 3] },
    ]);
  });

  it('keeps a number no passage has, and leaves link labels and other brackets as text', () => {
    expect(answerParts('See [7] and [x] or [docs](https://x.y)', placeOf)).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'cite', markers: [7] },
      { kind: 'text', text: ' and [x] or [docs](https://x.y)' },
    ]);
  });

  it('holds back a marker still being written while streaming', () => {
    expect(answerParts('Roll back first [1', placeOf, { streaming: true })).toEqual([
      { kind: 'text', text: 'Roll back first ' },
    ]);
    expect(answerParts('Roll back [2, ', placeOf, { streaming: true })).toEqual([
      { kind: 'text', text: 'Roll back ' },
    ]);
    expect(answerParts('Roll back [1', placeOf)).toEqual([{ kind: 'text', text: 'Roll back [1' }]);
  });

  it('lists the cited places once each, in order of first citation', () => {
    expect(citedMarkers(answerParts('A [3]. B [2]. C [1, 3].', placeOf))).toEqual([3, 1]);
  });
});
