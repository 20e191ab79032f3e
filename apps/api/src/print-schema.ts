/**
 * Prints the API's GraphQL schema (SDL) from the resolvers' metadata, without starting the API or
 * touching a service. The typed client of every client is generated from it (libs/api-client/codegen.ts).
 * Usage: node -r @swc-node/register apps/api/src/print-schema.ts [out-file]
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { printApiSchema } from './schema';

async function main() {
  const sdl = await printApiSchema();
  const out = process.argv[2];
  if (out) writeFileSync(out, sdl);
  else process.stdout.write(sdl);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
