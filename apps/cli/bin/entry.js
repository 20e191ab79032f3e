'use strict';
// Which file the `trove` binary runs: the bundle scripts/build-cli.sh made, while every source it
// holds is unchanged since; the TypeScript entry otherwise (compiled on the fly), so an edited
// checkout never runs a stale CLI.
const { readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

/** The bundle's path when it is current, else undefined. `root` is the repository's folder. */
function currentBundle(root) {
  const bundle = join(root, 'dist', 'cli', 'trove.js');
  try {
    const builtAt = statSync(bundle).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(join(root, 'dist', 'cli', 'meta.json'), 'utf8'));
    const files = Object.keys(inputs);
    if (files.length === 0) return undefined;
    for (const file of files) {
      if (statSync(join(root, file)).mtimeMs > builtAt) return undefined;
    }
    return bundle;
  } catch {
    // No bundle, or one of its sources is gone: the sources decide.
    return undefined;
  }
}

module.exports = { currentBundle };
