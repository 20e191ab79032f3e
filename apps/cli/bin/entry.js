'use strict';
// Which file the `trove` binary runs: the bundle scripts/build-cli.sh made, while every source it
// holds is unchanged since; the TypeScript entry otherwise (compiled on the fly), so an edited
// checkout never runs a stale CLI. The same rule as the api's and the worker's (scripts/app-entry.js).
const { join } = require('node:path');
const { currentBundle: bundleIfCurrent } = require('../../../scripts/app-entry');

/** The bundle's path when it is current, else undefined. `root` is the repository's folder. */
function currentBundle(root) {
  return bundleIfCurrent(root, join('dist', 'cli'), 'trove.js');
}

module.exports = { currentBundle };
