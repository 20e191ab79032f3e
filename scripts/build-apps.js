#!/usr/bin/env node
'use strict';
// Bundles the api and the worker (with the @trove libs they use; their packages stay in
// node_modules) into dist/apps/<app>/main.js, beside each the parsing thread's bundle
// (parse.thread.js, which the parse sandbox starts next to its own file). Started from these,
// neither the app nor any of its threads compiles TypeScript as it loads: under
// `node -r @swc-node/register` every thread (parsing, OCR, Temporal's workflow thread) loads the
// compiler hook and TypeScript itself, about 0.4 s of CPU and 45 MB of memory each.
//
// esbuild does not emit decorator metadata, which NestJS's injection reads: a file with
// decorators is compiled by swc first, with the settings @swc-node/register gives it.
//
// dist/apps/meta.json lists every source file the bundles hold: scripts/app-entry.js runs the
// bundles only while none of them is newer, the sources otherwise. `--if-stale` builds only then.
const { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const esbuild = require('esbuild');
const swc = require('@swc/core');
const { APPS, BUNDLE_DIR, currentAppBundle } = require('./app-entry');

const ROOT = join(__dirname, '..');
const DECORATOR = /^\s*@[A-Za-z_$][\w$]*(\.[\w$]+)*\s*\(/m;

/** Decorated TypeScript through swc (decorator metadata); the rest is esbuild's own. */
const decoratorMetadata = {
  name: 'decorator-metadata',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const source = readFileSync(path, 'utf8');
      if (!DECORATOR.test(source)) return undefined;
      const { code } = await swc.transform(source, {
        filename: path,
        sourceMaps: 'inline',
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          target: 'es2022',
          keepClassNames: true,
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
        },
        module: { type: 'es6' },
      });
      return { contents: code, loader: 'js' };
    });
  },
};

async function main() {
  if (process.argv.includes('--if-stale') && APPS.every((app) => currentAppBundle(ROOT, app))) {
    console.log('[trove] apps: the bundles in dist/apps are current');
    return;
  }
  const started = Date.now();
  const out = join(ROOT, BUNDLE_DIR);
  // Written aside (one folder per process: two test runs may build at once), then moved: a
  // half-written bundle is never run.
  const next = `${out}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  const entryPoints = {};
  for (const app of APPS) {
    entryPoints[`${app}/main`] = join(ROOT, 'apps', app, 'src', 'main.ts');
    entryPoints[`${app}/parse.thread`] = join(ROOT, 'libs', 'parsing', 'src', 'sandbox', 'parse.thread.ts');
  }
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints,
    outdir: next,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    // The worker hands this package's path to Temporal, which bundles the workflows itself.
    external: ['@trove/workflows'],
    tsconfig: join(ROOT, 'tsconfig.base.json'),
    // NestJS and GraphQL name things after their classes: the bundle keeps every name.
    keepNames: true,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [decoratorMetadata],
  });
  writeFileSync(join(next, 'meta.json'), JSON.stringify({ inputs: result.metafile.inputs }));
  rmSync(out, { recursive: true, force: true });
  renameSync(next, out);
  const files = Object.keys(result.metafile.inputs).length;
  console.log(`[trove] apps: bundled ${files} source files into ${BUNDLE_DIR} in ${Date.now() - started} ms`);
}

main().catch((error) => {
  console.error('[trove] apps: the bundle failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
