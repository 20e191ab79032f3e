/**
 * The dominant writing system of a text, as a language hint for search analysis:
 * Cyrillic → `ru`, Han/Kana/Hangul → `cjk`, Latin → `en`, otherwise `und`.
 * Script-based on purpose: it is what picks the analyzer (Russian stemming, CJK bigrams).
 */
export function detectLanguage(text: string): 'en' | 'ru' | 'cjk' | 'und' {
  let latin = 0;
  let cyrillic = 0;
  let cjk = 0;
  for (const ch of text) {
    if (/\p{Script=Latin}/u.test(ch)) latin++;
    else if (/\p{Script=Cyrillic}/u.test(ch)) cyrillic++;
    else if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(ch)) cjk += 2;
  }
  const max = Math.max(latin, cyrillic, cjk);
  if (max === 0) return 'und';
  if (max === cyrillic) return 'ru';
  if (max === cjk) return 'cjk';
  return 'en';
}
