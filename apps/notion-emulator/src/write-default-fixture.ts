import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultWorkspace } from './default-workspace';

/** Writes the default workspace fixture as JSON: `node -r @swc-node/register write-default-fixture.ts <file>`. */
const target = process.argv[2];
if (!target) {
  console.error(
    'usage: node -r @swc-node/register apps/notion-emulator/src/write-default-fixture.ts <output.json>',
  );
  process.exit(2);
}
const workspace = defaultWorkspace();
writeFileSync(resolve(target), `${JSON.stringify(workspace, null, 2)}\n`);
console.log(
  `wrote ${resolve(target)}: ${workspace.pages.length} pages, ${workspace.databases.length} databases, ` +
    `token ${workspace.integration.token}`,
);
