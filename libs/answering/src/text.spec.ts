import { describe, expect, it } from 'vitest';
import { contentWords, lexicalOverlap, questionLanguage, splitSentences } from './text';

describe('text', () => {
  it('tells the question language by script', () => {
    expect(questionLanguage('How do I roll back?')).toBe('en');
    expect(questionLanguage('Как откатить релиз в deployctl?')).toBe('ru');
    expect(questionLanguage('如何回滚 deployctl 版本？')).toBe('zh');
    expect(questionLanguage('123?')).toBe('en');
  });

  it('segments Chinese into words and drops function words in all three languages', () => {
    expect(contentWords('如何回滚一个发布版本？')).toEqual(['回', '滚', '发布', '版本']);
    expect(contentWords('Как откатить релиз?')).toEqual(['откат', 'релиз']);
    expect(contentWords('How do I roll back the releases?')).toEqual(['roll', 'back', 'releas']);
  });

  it('meets inflected forms through the light stem', () => {
    expect(lexicalOverlap('Релизы откатываются командой', 'откатывать релиз командой deployctl')).toBe(1);
    expect(lexicalOverlap('Rolled back releases', 'roll back a release')).toBe(1);
  });

  it('splits sentences of every script and keeps list lines apart', () => {
    expect(
      splitSentences('First one. Second!\n1. Open the dashboard\n2. Run it\n第一句。第二句！').map(
        (s) => s.text,
      ),
    ).toEqual(['First one.', 'Second!', '1. Open the dashboard', '2. Run it', '第一句。', '第二句！']);
  });
});
