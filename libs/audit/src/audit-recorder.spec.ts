import { describe, expect, it } from 'vitest';
import {
  ApiKeyRole,
  auditEventSchema,
  CredentialKind,
  type NewAuditEvent,
  parseAuditLine,
  auditLine,
} from '@trove/domain';
import { actorOf, AuditRecorder } from './audit-recorder';

describe('AuditRecorder', () => {
  it('names a person with the credential they used, a key by its id, and nobody as anonymous', () => {
    expect(
      actorOf({
        userId: 'u1',
        credential: CredentialKind.PERSONAL_TOKEN,
        credentialId: 't1',
        name: 'Ada',
        role: ApiKeyRole.VIEWER,
        projects: [],
      }),
    ).toEqual({ kind: 'USER', id: 'u1', name: 'Ada', credential: 'PERSONAL_TOKEN', credentialId: 't1' });
    expect(actorOf({ keyId: 'k1', name: 'bot', role: ApiKeyRole.ADMIN, projects: 'ALL' })).toMatchObject({
      kind: 'API_KEY',
      id: 'k1',
    });
    expect(actorOf(undefined)).toMatchObject({ kind: 'ANONYMOUS', id: null });
  });

  it('never fails the request it describes: an entry that cannot be written is logged', async () => {
    const logged: string[] = [];
    const recorder = new AuditRecorder(
      {
        append: () => Promise.reject(new Error('database down')),
        countQuery: () => Promise.reject(new Error('database down')),
      },
      { queryLog: 'counts' },
      (line) => logged.push(line),
    );
    await recorder.record({ action: 'auth.sign_in' });
    await recorder.query({ name: 'k', role: ApiKeyRole.VIEWER, projects: 'ALL' }, 'p1', 'search', 'q');
    expect(logged).toHaveLength(2);
    expect(logged[0]).toContain('auth.sign_in SUCCESS');
  });

  it('counts queries, or records each with its text when full query logging is on', async () => {
    const appended: NewAuditEvent[] = [];
    const counted: string[] = [];
    const store = {
      append: async (event: NewAuditEvent) => void appended.push(event),
      countQuery: async (_actor: unknown, projectId: string, kind: string) =>
        void counted.push(`${projectId}:${kind}`),
    };
    const who = { keyId: 'k', name: 'k', role: ApiKeyRole.VIEWER, projects: 'ALL' as const };
    await new AuditRecorder(store, { queryLog: 'counts' }, () => undefined).query(who, 'p1', 'ask', 'why?');
    expect(counted).toEqual(['p1:ask']);
    expect(appended).toEqual([]);
    await new AuditRecorder(store, { queryLog: 'full' }, () => undefined).query(
      who,
      'p1',
      'search',
      'rollback',
    );
    expect(appended[0]).toMatchObject({
      action: 'query.search',
      projectId: 'p1',
      detail: { text: 'rollback' },
    });
  });

  it('exports an entry as a line that reads back as the same entry, and refuses a line that is not one', () => {
    const event = auditEventSchema.parse({
      id: '42',
      at: '2026-12-06T08:00:00.000Z',
      ...AuditRecorder.event({
        action: 'access.role_granted',
        target: { kind: 'project', id: 'p1' },
        projectId: 'p1',
      }),
    });
    expect(parseAuditLine(auditLine(event))).toEqual(event);
    expect(() => parseAuditLine('{"id":"x"}')).toThrow();
  });
});
