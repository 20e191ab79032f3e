import { defaultWorkspace } from './default-workspace';
import { NotionEmulator, NOTION_VERSION } from './emulator';
import { loadWorkspace, type Workspace } from './workspace';

const USAGE = `usage: npm run notion-emulator -- [--fixture <workspace.json>] [--port <n>] [--host <addr>] [--rps <n|Infinity>] [--burst <n>]

Serves the Notion API (version ${NOTION_VERSION}) over a fixture workspace; without --fixture, the generated
default workspace. Point @notionhq/client at it with { auth: <token>, baseUrl: <printed URL> }.`;

function parseArgs(argv: string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const [key, inline] = arg.startsWith('--') ? arg.slice(2).split('=', 2) : [];
    if (!key || !['fixture', 'port', 'host', 'rps', 'burst'].includes(key)) {
      console.error(`unknown argument ${arg}\n\n${USAGE}`);
      process.exit(2);
    }
    const value = inline ?? argv[++i];
    if (value === undefined) {
      console.error(`--${key} needs a value\n\n${USAGE}`);
      process.exit(2);
    }
    args[key] = value;
  }
  return args;
}

function number(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = value === 'Infinity' ? Infinity : Number(value);
  if (Number.isNaN(n) || n < min) {
    console.error(`--${name} must be a number ≥ ${min}, got ${value}`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  let workspace: Workspace;
  try {
    workspace = args.fixture ? loadWorkspace(args.fixture) : defaultWorkspace();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const emulator = new NotionEmulator(workspace, {
    requestsPerSecond: number('rps', args.rps, 3),
    burst: number('burst', args.burst, 10),
  });
  const url = await emulator.start(number('port', args.port, 0, 0), args.host);
  console.log(`Notion emulator (API ${NOTION_VERSION}) listening on ${url}`);
  console.log(`token: ${emulator.token}`);
  console.log(
    `workspace: ${workspace.workspace.name} — ${workspace.pages.length} pages, ${workspace.databases.length} databases`,
  );
  const shutdown = () => void emulator.stop().then(() => process.exit(0));
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

void main();
