import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TroveErrorCode } from '@trove/domain';
import {
  DEFAULT_LOCAL_MODEL,
  LOCAL_MODELS,
  type LocalModel,
  localModel,
  localModelDir,
  verifiedModelFile,
} from './local-models';

const REPOSITORY = join(__dirname, '../../..');

describe('the local model catalogue', () => {
  it('pins every model by size and SHA-256, from PyPI wheels, with a chat format of our own', () => {
    expect(Object.keys(LOCAL_MODELS)).toEqual(['qwen2.5-coder-1.5b', 'smollm2-135m']);
    expect(LOCAL_MODELS[DEFAULT_LOCAL_MODEL].sha256).toBe(
      'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046',
    );
    for (const model of Object.values(LOCAL_MODELS)) {
      expect(model.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(model.bytes).toBeGreaterThan(10_000_000);
      expect(model.chatFormat).toBe('chatml');
      expect(model.file).toMatch(/^[a-z0-9._-]+\.gguf$/);
      for (const { package: pin } of model.pypi) expect(pin).toMatch(/^[a-z0-9-]+==\d+\.\d+\.\d+$/);
    }
    expect(LOCAL_MODELS['qwen2.5-coder-1.5b'].pypi).toHaveLength(22);
  });

  it('is the list infra/local/llm-model.sh installs from', () => {
    const script = readFileSync(join(REPOSITORY, 'infra/local/llm-model.sh'), 'utf8');
    expect(script).toContain('libs/llm/src/local-model-catalogue.json');
  });

  it('refuses a model name it does not know', () => {
    expect(localModel(undefined).name).toBe(DEFAULT_LOCAL_MODEL);
    expect(() => localModel('llama-70b')).toThrow(
      /TROVE_LLM_MODEL must be one of qwen2.5-coder-1.5b, smollm2-135m/,
    );
  });

  it('finds the models under TROVE_LOCAL_DIR unless a folder is given', () => {
    expect(localModelDir(undefined, { TROVE_LOCAL_DIR: '/srv/trove' })).toBe('/srv/trove/models');
    expect(localModelDir('/models', { TROVE_LOCAL_DIR: '/srv/trove' })).toBe('/models');
    expect(localModelDir(undefined, {})).toBe(join(REPOSITORY, '.trove/local/models'));
  });
});

describe('verifiedModelFile', () => {
  const content = Buffer.from('GGUF and some weights');
  const model: LocalModel = {
    ...LOCAL_MODELS['smollm2-135m'],
    name: 'tiny',
    file: 'tiny.gguf',
    bytes: content.length,
    sha256: 'a'.repeat(64),
  };
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'trove-models-'));
    writeFileSync(join(dir, 'tiny.gguf'), content);
    return dir;
  };

  it('accepts the file of the pinned size stamped with the pinned hash by the installer', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'tiny.gguf.sha256'), `${model.sha256}\n`);
    await expect(verifiedModelFile(model, dir)).resolves.toBe(join(dir, 'tiny.gguf'));
  });

  it('refuses a missing file, saying how to install it', async () => {
    await expect(
      verifiedModelFile(model, mkdtempSync(join(tmpdir(), 'trove-models-'))),
    ).rejects.toMatchObject({
      code: TroveErrorCode.LlmFailed,
      permanent: true,
      message: expect.stringContaining('run infra/local/llm-model.sh install tiny'),
    });
  });

  it('refuses a file of another size, an unstamped file, another hash, and a file newer than its stamp', async () => {
    const resized = folder();
    writeFileSync(join(resized, 'tiny.gguf'), Buffer.concat([content, Buffer.from('!')]));
    writeFileSync(join(resized, 'tiny.gguf.sha256'), model.sha256);
    await expect(verifiedModelFile(model, resized)).rejects.toThrow(
      /has 22 bytes, not the 21 of tiny: refused/,
    );

    const unstamped = folder();
    await expect(verifiedModelFile(model, unstamped)).rejects.toThrow(
      /not verified against the pinned SHA-256/,
    );

    const otherHash = folder();
    writeFileSync(join(otherHash, 'tiny.gguf.sha256'), 'b'.repeat(64));
    await expect(verifiedModelFile(model, otherHash)).rejects.toThrow(/not verified/);

    const replaced = folder();
    writeFileSync(join(replaced, 'tiny.gguf.sha256'), model.sha256);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(replaced, 'tiny.gguf'), later, later);
    await expect(verifiedModelFile(model, replaced)).rejects.toThrow(/not verified/);
  });
});
