#!/usr/bin/env node
'use strict';
// The `trove` binary: compiles the TypeScript entry on the fly (as scripts/apps.sh runs the apps),
// from whatever folder it is started in; the repository's tsconfig decides the compilation.
const { join } = require('node:path');

process.env.SWC_NODE_PROJECT =
  process.env.SWC_NODE_PROJECT || join(__dirname, '..', '..', '..', 'tsconfig.base.json');
require('@swc-node/register');
require('../src/main.ts');
