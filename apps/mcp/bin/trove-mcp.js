#!/usr/bin/env node
// `npx trove-mcp` from the repository: runs the TypeScript entry point the way the other apps
// run (SWC on the fly), with the repository's tsconfig whatever the working directory is.
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || join(root, 'tsconfig.json');
require('@swc-node/register');
require(join(root, 'apps', 'mcp', 'src', 'main.ts'));
