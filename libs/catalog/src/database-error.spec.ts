import { describe, expect, it } from 'vitest';
import { databaseError } from './database-error';

describe('databaseError', () => {
  it('an unreachable or restarting PostgreSQL is transient SERVICE_UNAVAILABLE, without the address', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    for (const cause of [refused, shutdown, new Error('Connection terminated unexpectedly')]) {
      const error = databaseError(cause, 'reading a document');
      expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', permanent: false });
      expect(error.message).toBe('the catalog database is unavailable while reading a document');
    }
  });

  it('anything else is INTERNAL and names the action', () => {
    const error = databaseError(
      Object.assign(new Error('syntax error'), { code: '42601' }),
      'listing documents',
    );
    expect(error).toMatchObject({ code: 'INTERNAL' });
    expect(error.message).toContain('listing documents');
  });
});

describe('databaseError: what no retry can pass', () => {
  it('a statement PostgreSQL refuses for its data or a constraint is permanent', () => {
    for (const code of ['22021', '22P02', '22001', '23505', '23514']) {
      const error = databaseError(Object.assign(new Error(`refused ${code}`), { code }), 'writing a run');
      expect(error, code).toMatchObject({ code: 'INTERNAL', permanent: true });
      expect(error.message).toBe(`the catalog database failed while writing a run: refused ${code}`);
    }
  });

  it('an unexpected error without a data or constraint SQLSTATE stays retryable', () => {
    for (const cause of [new Error('something odd'), Object.assign(new Error('syntax'), { code: '42601' })]) {
      expect(databaseError(cause, 'reading')).toMatchObject({ code: 'INTERNAL', permanent: false });
    }
  });
});
