#!/usr/bin/env node
'use strict';
// The `trove` binary, from whatever folder it is started in: the bundle (scripts/build-cli.sh,
// run by the quick start) while it is current, else the TypeScript entry compiled on the fly (as
// scripts/apps.sh runs the apps), with the repository's tsconfig deciding the compilation.
const { join } = require('node:path');
const { currentBundle } = require('./entry');

const root = join(__dirname, '..', '..', '..');
const bundle = currentBundle(root);
if (bundle) {
  require(bundle);
} else {
  process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || join(root, 'tsconfig.base.json');
  require('@swc-node/register');
  require('../src/main.ts');
}
