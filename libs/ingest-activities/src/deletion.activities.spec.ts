import { ApplicationFailure } from '@temporalio/activity';
import type { WriteChecks } from '@trove/catalog';
import type { Project, Source } from '@trove/domain';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { describe, expect, it } from 'vitest';
import { assertWritable, isWritable } from './deletion.activities';
import { InMemoryCatalog } from './fakes.testing';

/** A catalog whose project check answers with `refusal` (or passes when undefined). */
class RefusingCatalog implements WriteChecks {
  private readonly records = new InMemoryCatalog();
  private readonly source = this.records.newSource();

  constructor(private readonly refusal?: TroveError) {}

  async requireActiveProject(): Promise<Project> {
    if (this.refusal) throw this.refusal;
    return this.records.projects.get(this.source.projectId)!;
  }

  async requireActiveSource(): Promise<Source> {
    if (this.refusal) throw this.refusal;
    return this.source;
  }
}

function catalogRefusing(refusal?: TroveError): WriteChecks {
  return new RefusingCatalog(refusal);
}

describe('assertWritable (worker-side defence of a project or source being deleted)', () => {
  it('passes for an active project', async () => {
    await expect(assertWritable(catalogRefusing(), { projectId: 'p' })).resolves.toBeUndefined();
    expect(await isWritable(catalogRefusing(), { projectId: 'p', sourceId: 's' })).toBe(true);
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
      expect(await isWritable(catalog, { projectId: 'p' })).toBe(false);
    },
  );

  it('lets a transient fault through, to be retried', async () => {
    const catalog = catalogRefusing(
      new TroveError(TroveErrorCode.ServiceUnavailable, 'Elasticsearch is down'),
    );
    await expect(assertWritable(catalog, { projectId: 'p' })).rejects.toBeInstanceOf(TroveError);
    await expect(isWritable(catalog, { projectId: 'p' })).rejects.toBeInstanceOf(TroveError);
  });
});
