import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';

export interface WorkflowBundleOptions {
  workflowsPath: string;
  /** Workflow interceptor modules bundled with the workflows (tracing's, when on). */
  workflowInterceptorModules?: string[];
  /** Where bundles are kept; unset: bundled afresh at every start. */
  cacheDir?: string;
  log?: (message: string) => void;
}

/** What a kept bundle was made from: every source file webpack read, with its content's hash. */
interface Manifest {
  bundle: string;
  files: [path: string, sha256: string][];
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The worker's workflow bundle, kept on disk by what it was built from. Webpack takes seconds of
 * CPU at every worker start; a bundle is a function of its source files, which the bundle's own
 * inline source map lists (Temporal's bundler names them by absolute path), so a kept bundle is
 * reused while every one of those files has the content it was built from, and rebuilt otherwise.
 */
export async function workflowBundle(options: WorkflowBundleOptions): Promise<WorkflowBundle> {
  const { workflowsPath, workflowInterceptorModules = [], cacheDir, log } = options;
  const bundle = async (): Promise<WorkflowBundle> => ({
    code: (await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules })).code,
  });
  if (!cacheDir) return bundle();
  const key = sha256(
    JSON.stringify({
      workflowsPath,
      workflowInterceptorModules,
      temporal: require('@temporalio/worker/package.json').version as string,
      node: process.version,
    }),
  ).slice(0, 16);
  const manifestPath = join(cacheDir, `${key}.json`);
  const kept = readManifest(manifestPath);
  if (kept && existsSync(join(cacheDir, kept.bundle)) && unchanged(kept)) {
    return { code: readFileSync(join(cacheDir, kept.bundle), 'utf8') };
  }
  const built = await bundle();
  const files = sourceFiles(built.code);
  if (files.length === 0) return built; // no source map to know its inputs by: never kept
  mkdirSync(cacheDir, { recursive: true });
  const name = `${key}-${sha256(built.code).slice(0, 16)}.js`;
  // Written aside and renamed: two workers starting at once never read half a file.
  writeAtomically(join(cacheDir, name), built.code);
  const manifest: Manifest = { bundle: name, files: files.map((f) => [f, sha256(readFileSync(f))]) };
  writeAtomically(manifestPath, JSON.stringify(manifest));
  log?.(`workflow bundle kept in ${join(cacheDir, name)} (${files.length} source files)`);
  return built;
}

function readManifest(path: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

function unchanged(manifest: Manifest): boolean {
  return manifest.files.every(([path, hash]) => {
    try {
      return sha256(readFileSync(path)) === hash;
    } catch {
      return false;
    }
  });
}

/** The files a bundle's inline source map names that exist on disk (webpack's own runtime does not). */
export function sourceFiles(code: string): string[] {
  const marker = 'sourceMappingURL=data:application/json;charset=utf-8;base64,';
  const at = code.lastIndexOf(marker);
  if (at < 0) return [];
  const map = JSON.parse(Buffer.from(code.slice(at + marker.length).trim(), 'base64').toString('utf8')) as {
    sources?: string[];
  };
  const paths = (map.sources ?? []).map((s) => s.replace(/^webpack:\/\/\/?/, '/').replace(/^\/+/, '/'));
  return [...new Set(paths)].filter((p) => p.startsWith('/') && existsSync(p)).sort();
}

function writeAtomically(path: string, data: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}
