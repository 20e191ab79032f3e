import { EmbedderStub } from './embedder-stub';
import { parseCommandLine, USAGE, UsageError } from './options';

async function main(): Promise<void> {
  let options;
  try {
    options = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (!options) {
    console.log(USAGE);
    return;
  }
  const stub = new EmbedderStub(options);
  const url = await stub.start(options.port, options.host);
  console.log(`embedder stub listening on ${url} (model ${options.model}, ${options.dimensions} dimensions)`);
  console.log(
    `FOR BENCHMARKS ONLY: hash vectors without meaning, answered ${options.delayMs ? `after ${options.delayMs} ms` : 'at once'}`,
  );
  const shutdown = () =>
    void stub.stop().then(() => {
      const { requests, texts, rejected } = stub.stats;
      console.log(
        `embedder stub stopped: ${requests} embedding requests, ${texts} texts, ${rejected} rejected`,
      );
      process.exit(0);
    });
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
