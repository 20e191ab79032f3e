import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from './services';

/** Debian's Chromium (infra/local/install-chromium.sh installs it), or TROVE_CHROMIUM. */
export function chromiumPath(): string {
  const candidates = [process.env.TROVE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((path): path is string => !!path && existsSync(path));
  if (found) return found;
  execFileSync('bash', [join(ROOT, 'infra', 'local', 'install-chromium.sh')], { stdio: 'inherit' });
  return chromiumPath();
}

/** Headless Chromium as root in a container: no sandbox, and /dev/shm may be small. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

const DASHBOARD = join(ROOT, 'apps', 'dashboard');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/**
 * Builds the dashboard (npm run build:dashboard) unless its build is newer than its sources
 * (its own and those of the libs it bundles).
 * Asynchronously: a test worker blocked for a minute loses its connection to vitest.
 */
export async function ensureDashboardBuild(): Promise<void> {
  const built = join(DASHBOARD, 'dist', 'index.html');
  const sources = [
    ...['src', 'public', 'index.html', 'playground', 'vite.config.ts'].map((p) => join(DASHBOARD, p)),
    // The client core and the contract the dashboard is built from.
    join(ROOT, 'libs', 'api-client', 'src'),
    join(ROOT, 'libs', 'domain', 'src'),
  ].map(newestMtime);
  if (existsSync(built) && statSync(built).mtimeMs > Math.max(...sources)) return;
  await promisify(execFile)('bash', [join(ROOT, 'scripts', 'build-dashboard.sh')], {
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The page fits the viewport's width: nothing scrolls sideways (tables scroll in their own box). */
export function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth + 1');
}

/**
 * Records into `problems` anything the browser refused or failed on: CSP violations, script
 * errors, failed requests, and any request leaving `origin` (the dashboard works offline).
 */
export function watchPage(page: Page, origin: string, problems: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url)) problems.push(`request to ${url}`);
  });
}

/**
 * Signs the dashboard in with `key` and waits for its first page: Ask in the last project opened
 * (or the first with documents), the project list when the key reaches none.
 */
export async function signIn(page: Page, origin: string, key: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /^(Projects|Ask · .+)$/ }).waitFor();
}
