import { availableParallelism } from 'node:os';
import swc from 'unplugin-swc';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// SWC (not esbuild) compiles the tests so NestJS decorators keep their type metadata.
const plugins = [swc.vite({ tsconfigFile: './tsconfig.base.json', module: { type: 'es6' } })];

/**
 * The second end-to-end lane, `e2e-beside` (TROVE_E2E_LANES=2, scripts/test.sh): a second vitest
 * process that starts beside the integration tests (on a machine whose builds are done) and goes
 * on beside the main e2e lane, so the two tracks — integration then the main lane, and this one —
 * end near together. Integration runs one file at a time and left a quarter of the CPU idle, and
 * the main lane ran alone for minutes after this one ended.
 *
 * First the files that spend most of their time waiting, not computing: for a heartbeat timeout
 * after a killed worker, a retry's backoff, an embedding timeout, a private service restarting;
 * then files that talk to the api far more than they make it compute (sign-in and access checks,
 * webhook deliveries, a backup's copies); then, to even out the tracks, Git, Notion, CLI and MCP
 * syncs and Office files. Each starts its own stack (and private services where it stops one);
 * none holds a bound on time, and the memory some log or bound is their own process's.
 */
const E2E_BESIDE = [
  'test/e2e/faults.test.ts',
  'test/e2e/workers.test.ts',
  'test/e2e/notion-durability.test.ts',
  'test/e2e/error-leaks.test.ts',
  'test/e2e/poison-input.test.ts',
  'test/e2e/search-limits.test.ts',
  'test/e2e/temporal-production.test.ts',
  'test/e2e/distributed.test.ts',
  'test/e2e/access-matrix.test.ts',
  'test/e2e/webhook-security.test.ts',
  'test/e2e/security-probe-2.test.ts',
  'test/e2e/backup-restore.test.ts',
  'test/e2e/sync-stalled.test.ts',
  'test/e2e/subscription-revocation.test.ts',
  'test/e2e/project-deletion.test.ts',
  'test/e2e/git-limits.test.ts',
  'test/e2e/git-source.test.ts',
  'test/e2e/notion-sync.test.ts',
  'test/e2e/office-files.test.ts',
  'test/e2e/original-links.test.ts',
  'test/e2e/cli-docs.test.ts',
  'test/e2e/mcp.test.ts',
];
const lanes = process.env.TROVE_E2E_LANES === '2';

/**
 * Integration files that use a program `npm test` builds in a background job on a new machine
 * (scripts/test.sh: SeaweedFS, llama.cpp's server, docker compose, Prometheus, helm, kubeconform).
 * The integration stage starts without waiting for those builds; these files run last, and each
 * waits for its program (test/support/installed.ts) while the others have run beside the builds.
 */
const NEEDS_BUILT_PROGRAMS = [
  'test/integration/infra/docker-compose.test.ts',
  'test/integration/infra/grafana.test.ts',
  'test/integration/infra/helm.test.ts',
  'test/integration/llm/llama-server.test.ts',
  'test/integration/storage/s3-backup.test.ts',
  'test/integration/storage/s3-blob-store.test.ts',
];

/** Vitest's order (failed first, then longest first), with NEEDS_BUILT_PROGRAMS moved to the end. */
class BuiltProgramsLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (file: TestSpecification) =>
      NEEDS_BUILT_PROGRAMS.some((path) => file.moduleId.endsWith(`/${path}`));
    return [...sorted.filter((file) => !last(file)), ...sorted.filter(last)];
  }
}

const e2e = (name: string, include: string[], exclude: string[] = []) => ({
  plugins,
  test: {
    name,
    include,
    exclude: [...configDefaults.exclude, ...exclude],
    globalSetup: ['test/support/global-setup.ts'],
    environment: 'node' as const,
    pool: 'forks' as const,
    poolOptions: { forks: { singleFork: true, isolate: true } },
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});

export default defineConfig({
  test: {
    // Vitest's default is cores - 1 files at a time: one on a 2-core machine, which leaves a core
    // idle while a unit spec loads its imports or waits on its worker threads. (Integration and
    // end-to-end files run one at a time per process: singleFork.)
    maxWorkers: availableParallelism(),
    // Unit specs run without isolation: a worker's files share its module cache instead of each
    // importing everything again (the unit stage took 165 s, 78 s of them importing). This is the
    // pool's setting; the integration and end-to-end projects isolate each file (poolOptions below).
    poolOptions: { forks: { isolate: false } },
    sequence: { sequencer: BuiltProgramsLast },
    projects: [
      {
        plugins,
        test: {
          name: 'unit',
          include: ['libs/**/*.spec.ts', 'apps/**/*.spec.ts', 'tools/**/*.spec.ts'],
          environment: 'node',
          // Not isolated (the root's poolOptions): the files of a worker share its module cache
          // instead of each importing everything again. So a spec leaves no global state behind
          // (it restores the environment variables and globals it changes) and fakes a dependency
          // by injecting it, not with vi.mock: a module another file loaded first is not mocked again.
          unstubGlobals: true,
          unstubEnvs: true,
        },
      },
      {
        plugins,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          environment: 'node',
          pool: 'forks',
          // One file at a time: the suites share the real services on a 2-core machine.
          poolOptions: { forks: { singleFork: true, isolate: true } },
          testTimeout: 180_000,
          hookTimeout: 240_000,
        },
      },
      e2e('e2e', ['test/e2e/**/*.test.ts'], lanes ? E2E_BESIDE : []),
      ...(lanes ? [e2e('e2e-beside', E2E_BESIDE)] : []),
    ],
  },
});
