import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Integration and end-to-end tests run against the real local services; make sure they are up. */
export default function setup() {
  if (process.env.TROVE_TEST_SKIP_SERVICES === '1') return;
  execFileSync('bash', [join(__dirname, '..', '..', 'infra', 'local', 'up.sh')], { stdio: 'inherit' });
}
