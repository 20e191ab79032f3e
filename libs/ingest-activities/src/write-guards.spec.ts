import { ApplicationFailure } from '@temporalio/activity';
import type { WriteChecks } from '@trove/catalog';
import type { Project, Source } from '@trove/domain';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { describe, expect, it } from 'vitest';
import { assertWritable, guardedDocumentWrite } from './write-guards';
import { InMemoryCatalog } from './fakes.testing';

/** A catalog whose project check answers with `refusal` (or passes when undefined). */
class RefusingCatalog implements WriteChecks {
  private readonly records = new InMemoryCatalog();
  private readonly source = this.records.newSource();

  constructor(public refusal?: TroveError) {}

  async requireActiveProject(): Promise<Project> {
    if (this.refusal) throw this.refusal;
    return this.records.projects.get(this.source.projectId)!;
  }

  async requireActiveSource(): Promise<Source> {
    if (this.refusal) throw this.refusal;
    return this.source;
  }
}

function catalogRefusing(refusal?: TroveError): RefusingCatalog {
  return new RefusingCatalog(refusal);
}

describe('assertWritable (worker-side defence of a project or source being deleted)', () => {
  it('passes for an active project', async () => {
    await expect(assertWritable(catalogRefusing(), { projectId: 'p' })).resolves.toBeUndefined();
    await expect(
      assertWritable(catalogRefusing(), { projectId: 'p', sourceId: 's' }),
    ).resolves.toBeUndefined();
  });

  it.each([TroveErrorCode.ProjectDeleting, TroveErrorCode.ProjectNotFound, TroveErrorCode.SourceNotFound])(
    'refuses for good (non-retryable) on %s',
    async (code) => {
      const catalog = catalogRefusing(new TroveError(code, 'refused'));
      const failure = await assertWritable(catalog, { projectId: 'p', sourceId: 's' }).catch(
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(ApplicationFailure);
      expect(failure).toMatchObject({ type: code, nonRetryable: true });
    },
  );

  it('lets a transient fault through, to be retried', async () => {
    const catalog = catalogRefusing(
      new TroveError(TroveErrorCode.ServiceUnavailable, 'Elasticsearch is down'),
    );
    await expect(assertWritable(catalog, { projectId: 'p' })).rejects.toBeInstanceOf(TroveError);
  });
});

describe('guardedDocumentWrite (what an activity writes for documents outside the catalog)', () => {
  const owners = [{ projectId: 'p', sourceId: 's' }, { projectId: 'p' }];

  it('keeps the write while every owner stays active', async () => {
    const catalog = catalogRefusing();
    const undone: string[] = [];
    await expect(
      guardedDocumentWrite(
        catalog,
        owners,
        async () => 'chunks',
        async () => undone.push('chunks'),
      ),
    ).resolves.toBe('chunks');
    expect(undone).toEqual([]);
  });

  it('undoes the write once and fails for good when an owner started being deleted meanwhile', async () => {
    const catalog = catalogRefusing();
    const undone: string[] = [];
    const failure = await guardedDocumentWrite(
      catalog,
      owners,
      async () => {
        catalog.refusal = new TroveError(TroveErrorCode.ProjectDeleting, 'being deleted');
        return 'chunks';
      },
      async () => undone.push('chunks'),
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: TroveErrorCode.ProjectDeleting, nonRetryable: true });
    expect(undone).toEqual(['chunks']);
  });

  it('undoes the write when the check cannot be made, and lets the fault through to be retried', async () => {
    const catalog = catalogRefusing();
    const undone: string[] = [];
    const write = async () => {
      catalog.refusal = new TroveError(TroveErrorCode.ServiceUnavailable, 'PostgreSQL is down');
    };
    await expect(
      guardedDocumentWrite(catalog, owners, write, async () => undone.push('chunks')),
    ).rejects.toBeInstanceOf(TroveError);
    expect(undone).toEqual(['chunks']);
  });
});
