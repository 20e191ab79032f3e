import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Integration and end-to-end tests run against the real local services; make sure they are up,
 * that the browser tests have Debian's Chromium (installed once, from the distribution), and that
 * the apps' bundles, which the test stacks start, are current (built again only when stale).
 */
export default function setup() {
  if (process.env.TROVE_TEST_SKIP_SERVICES === '1') return;
  const root = join(__dirname, '..', '..');
  execFileSync(process.execPath, [join(root, 'scripts', 'build-apps.js'), '--if-stale'], {
    stdio: 'inherit',
  });
  const infra = join(root, 'infra', 'local');
  // The services the tests use; the query embedder is not one (its tests start their own servers).
  execFileSync('bash', [join(infra, 'up.sh'), 'elasticsearch', 'temporal', 'embedder', 'postgresql'], {
    stdio: 'inherit',
  });
  execFileSync('bash', [join(infra, 'install-chromium.sh')], { stdio: 'inherit' });
}
