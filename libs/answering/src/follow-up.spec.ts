import { describe, expect, it } from 'vitest';
import { rewriteFollowUp } from './follow-up';

const after = (question: string, ...earlier: string[]) =>
  rewriteFollowUp(
    question,
    earlier.map((q) => ({ question: q })),
  );

describe('rewriteFollowUp (no language model)', () => {
  it('puts the new words in the place of the ones they stand for, next to a word both share', () => {
    expect(after('and for the Russian office?', 'How do I deploy in the Berlin office?')).toBe(
      'How do I deploy in the Russian office?',
    );
    expect(after('What about the staging cluster?', 'How many nodes does the production cluster have?')).toBe(
      'How many nodes does the staging cluster have?',
    );
    expect(after('а для российского офиса?', 'Как развернуть сервис в берлинском офисе?')).toBe(
      'Как развернуть сервис в российского офисе?',
    );
    expect(after('那俄罗斯办公室呢？', '柏林办公室怎么部署？')).toBe('俄罗斯办公室怎么部署？');
  });

  it('replaces a name by a name of the same shape when nothing is shared', () => {
    expect(after('and Moscow?', 'How do I deploy Trove in Berlin?')).toBe('How do I deploy Trove in Moscow?');
    expect(after('а в Москве?', 'Как деплоить в Берлине?')).toBe('Как деплоить в Москве?');
    expect(after('what about v3?', 'How do I upgrade to v2 with SSO?')).toBe(
      'How do I upgrade to v3 with SSO?',
    );
  });

  it('reads a follow-up against the last question as rewritten, not the first', () => {
    const turns = [
      { question: 'How do I deploy in the Berlin office?' },
      {
        question: 'and for the Russian office?',
        standaloneQuestion: 'How do I deploy in the Russian office?',
      },
    ];
    expect(rewriteFollowUp('and the Paris office?', turns)).toBe('How do I deploy in the Paris office?');
  });

  it('gives a follow-up that points back (a pronoun, nothing of its own) the last question’s words', () => {
    expect(after('Does it support SAML?', 'How do I configure SSO?')).toBe(
      'Does it support SAML? (configure SSO)',
    );
    expect(after('why?', 'How do I deploy in the Berlin office?')).toBe('why? (deploy Berlin office)');
    expect(after('А как его откатить?', 'Как выкатить релиз?')).toBe('А как его откатить? (выкатить релиз)');
    expect(after('它支持SAML吗？', '如何配置单点登录？')).toMatch(/^它支持SAML吗？ \(.*配置.*\)$/);
    // A verb phrase is not put in the place of a noun: the words go beside it instead.
    expect(after('Or should I use Helm?', 'How do I deploy in Berlin?')).toBe(
      'Or should I use Helm? (deploy Berlin)',
    );
  });

  it('leaves a question that stands alone as it is, in every language, and has nothing to read without a turn', () => {
    const before = 'How do I deploy in the Berlin office?';
    for (const question of [
      'How do I configure SSO in Keycloak?',
      'And how do I rotate the API keys for the staging cluster?',
      'What does it cost to run a three-node Elasticsearch cluster in production?',
      'Как настроить единый вход в Keycloak?',
      '如何在生产环境中配置单点登录？',
    ]) {
      expect(after(question, before), question).toBeUndefined();
    }
    expect(after('and for the Russian office?')).toBeUndefined();
  });
});
