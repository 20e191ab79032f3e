import { describe, expect, it } from 'vitest';
import { citedSentencesGrammar, MAX_CITED_SENTENCES, MAX_UNCITED_CHARS } from './cited-sentences.grammar';

describe('citedSentencesGrammar', () => {
  const grammar = citedSentencesGrammar([1, 2, 3, 2], 'INSUFFICIENT_CONTEXT');
  const rule = (name: string) => grammar.split('\n').find((line) => line.startsWith(`${name} ::=`));

  it('allows the refusal, or cited sentences naming only the given passages', () => {
    expect(rule('root')).toBe('root ::= refusal | answer');
    expect(rule('refusal')).toBe('refusal ::= "INSUFFICIENT_CONTEXT"');
    expect(rule('number')).toBe('number ::= "1" | "2" | "3"');
    expect(rule('sentence')).toBe('sentence ::= text close');
    expect(rule('close')).toBe('close ::= end? " "? marker+ end?');
  });

  it('bounds the sentences, and the text before a marker, which cannot end a sentence', () => {
    expect(rule('answer')!.match(/\(sep sentence\)\?/g)).toHaveLength(MAX_CITED_SENTENCES - 1);
    expect(rule('text')).toBe(`text ::= plain piece{0,${MAX_UNCITED_CHARS - 1}}`);
    // A full stop is text only when a letter follows it (v2.5); 。！？ only end a sentence.
    expect(rule('piece')).toBe('piece ::= plain | " " | [.!?]+ plain');
    expect(rule('plain')).toBe(String.raw`plain ::= [^\[\]\n\r \t.!?。！？]`);
  });

  it('refuses an answer without passages and a refusal token a grammar would have to escape', () => {
    expect(() => citedSentencesGrammar([], 'INSUFFICIENT_CONTEXT')).toThrow(/at least one passage/);
    expect(() => citedSentencesGrammar([1], 'say "no"')).toThrow(/refusal token/);
  });
});
