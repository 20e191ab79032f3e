#!/usr/bin/env node
'use strict';
// How an app (api, worker) is started: from its bundle (scripts/build-apps.js) while every source
// it holds is unchanged since, else from its TypeScript entry compiled on the fly, so an edited
// checkout never runs a stale app. `node scripts/app-entry.js worker` prints node's arguments, one
// per line, for the shell scripts.
const { readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

const APPS = ['api', 'worker'];
const BUNDLE_DIR = join('dist', 'apps');

/**
 * `file`'s path in `folder` (both relative to `root`) when that bundle is current: every input in
 * the folder's meta.json is older than it. Undefined otherwise (no bundle, or a source changed or
 * gone).
 */
function currentBundle(root, folder, file) {
  const bundle = join(root, folder, file);
  try {
    const builtAt = statSync(bundle).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(join(root, folder, 'meta.json'), 'utf8'));
    const files = Object.keys(inputs);
    if (files.length === 0) return undefined;
    for (const input of files) {
      if (statSync(join(root, input)).mtimeMs > builtAt) return undefined;
    }
    return bundle;
  } catch {
    return undefined;
  }
}

/** The app's current bundle, or undefined. */
function currentAppBundle(root, app) {
  return currentBundle(root, BUNDLE_DIR, join(app, 'main.js'));
}

/**
 * node's arguments that start `app` (paths relative to `root`): its bundle, with stack traces
 * mapped to the TypeScript sources, while current; the TypeScript entry otherwise.
 */
function appArgs(root, app) {
  if (!APPS.includes(app)) throw new Error(`unknown app '${app}': ${APPS.join(' or ')}`);
  return currentAppBundle(root, app)
    ? ['--enable-source-maps', join(BUNDLE_DIR, app, 'main.js')]
    : ['-r', '@swc-node/register', join('apps', app, 'src', 'main.ts')];
}

module.exports = { APPS, BUNDLE_DIR, appArgs, currentAppBundle, currentBundle };

if (require.main === module) {
  try {
    console.log(appArgs(join(__dirname, '..'), process.argv[2]).join('\n'));
  } catch (error) {
    console.error(`[trove] ${error.message}`);
    process.exit(2);
  }
}
