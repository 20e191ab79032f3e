import { describe, expect, it } from 'vitest';
import {
  checkMarkers,
  parseMarkers,
  removeInvalidMarkers,
  stripMarkers,
  withoutUnfinishedMarker,
} from './markers';

describe('citation markers', () => {
  it('reads single markers, lists and runs, but not Markdown link labels', () => {
    expect(parseMarkers('A [1]. B [2, 3]. C [4][5]. D [6;7]. See [8](http://x) and [x].')).toEqual([
      1, 2, 3, 4, 5, 6, 7,
    ]);
  });

  it('splits markers into those naming a given passage and the others, once each, in order of use', () => {
    expect(checkMarkers('A [3]. B [1][3]. C [0]. D [9] [9].', 3)).toEqual({
      valid: [3, 1],
      invalid: [0, 9],
      missing: false,
    });
    expect(checkMarkers('No citation at all.', 3)).toEqual({ valid: [], invalid: [], missing: true });
  });

  it('removes invalid markers, keeps the valid part of a list and tidies the space left behind', () => {
    expect(removeInvalidMarkers('Roll back [1, 9]. Confirm [5]. Post [2][7].', 2)).toBe(
      'Roll back [1]. Confirm. Post [2].',
    );
    expect(removeInvalidMarkers('回滚版本 [4]。', 2)).toBe('回滚版本。');
  });

  it('strips markers from a sentence for comparison with a passage', () => {
    expect(stripMarkers('Run deployctl rollback [1][2].')).toBe('Run deployctl rollback.');
  });
});

describe('withoutUnfinishedMarker', () => {
  it('drops a marker cut off at the end, and only that', () => {
    expect(withoutUnfinishedMarker('Roll back with deployctl [1][')).toBe('Roll back with deployctl [1]');
    expect(withoutUnfinishedMarker('Roll back with deployctl [2, ')).toBe('Roll back with deployctl');
    expect(withoutUnfinishedMarker('Roll back with deployctl [1].')).toBe('Roll back with deployctl [1].');
    expect(withoutUnfinishedMarker('Use arr[0] [1]')).toBe('Use arr[0] [1]');
  });
});
