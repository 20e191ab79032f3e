import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDashboardBuild, launchChromium } from '../support/browser';
import {
  ensureKeycloak,
  identityEnv,
  ISSUER,
  PROVIDER_ID,
  RealmAdmin,
  type RealmUser,
} from '../support/identity-provider';
import { ROOT } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

/**
 * The dashboard for people, in Chromium through the real provider: the provider's button, its
 * login page, back in the dashboard as the person (name and initials) with their group's project;
 * a personal token made and shown once; an operator (API key, behind the link) sees the person
 * and the sign-in in the audit log; signing out ends the session at the provider too.
 */
const SHOTS = join(ROOT, 'test-results', 'dashboard-people');
const stack = new TroveStack(identityEnv());
const realm = new RealmAdmin();
const GROUP = `dash-${Date.now().toString(36)}`;
const EVENTUALLY = { timeout: 30_000 };
let browser: Browser;
let person: RealmUser;
let project: string;

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  ensureKeycloak();
  await ensureDashboardBuild();
  await stack.start({ worker: false });
  project = await stack.createProject('Team handbook');
  await stack.query('mutation($input: GrantProjectRoleInput!) { grantProjectRole(input: $input) { id } }', {
    input: { projectId: project, groupName: GROUP, groupProvider: PROVIDER_ID, role: 'EDITOR' },
  });
  person = await realm.user('dashboard', [GROUP]);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await realm.deleteUser(person.id).catch(() => undefined);
  await stack.stop();
});

describe('the dashboard for people', () => {
  it('signs in with the provider’s button and lands as the person, with the project of their group', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.url}/`);
    const button = page.getByRole('link', { name: 'Sign in with Keycloak (local)' });
    await button.waitFor(EVENTUALLY);
    await expect(page.getByLabel('API key').count()).resolves.toBe(0);
    await shot(page, '01-sign-in');
    await button.click();
    await page.locator('#username').waitFor(EVENTUALLY);
    await page.locator('#username').fill(person.username);
    await page.locator('#password').fill(person.password);
    await page.locator('#kc-login').click();
    await page.getByTestId('caller-person').waitFor(EVENTUALLY);
    expect(new URL(page.url()).origin).toBe(stack.url);
    await expect(page.getByTestId('caller-person').innerText()).resolves.toContain(person.name);
    // They land on Ask in what they reach: their group's project.
    await page.getByRole('heading', { name: 'Ask · Team handbook' }).waitFor(EVENTUALLY);
    await shot(page, '02-signed-in');

    await page.getByRole('link', { name: 'Personal tokens' }).click();
    await page.getByLabel('Name').fill('laptop script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.getByTestId('new-token').innerText(EVENTUALLY);
    expect(secret).toMatch(/^trove_pat_/);
    const asToken = await stack.gql<{ me: { name: string } }>(
      '{ me { name credential } }',
      {},
      { authorization: `Bearer ${secret}` },
    );
    expect(asToken.data?.me).toMatchObject({ name: person.name, credential: 'PERSONAL_TOKEN' });
    await shot(page, '03-token');

    // Signing out ends the session here (the api's answer), then at the provider, which sends
    // the browser back to the sign-in page.
    const ended = page.waitForResponse(
      (r) => r.url() === `${stack.url}/auth/logout` && r.request().method() === 'POST',
    );
    const atProvider = page.waitForRequest((r) =>
      r.url().startsWith(`${ISSUER}/protocol/openid-connect/logout`),
    );
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect((await ended).status()).toBe(200);
    await atProvider;
    await page.waitForURL((url) => url.origin === stack.url, EVENTUALLY);
    await page.getByRole('heading', { name: 'Sign in to Trove' }).waitFor(EVENTUALLY);
    const after = await page.context().request.get(`${stack.url}/auth/session`);
    expect(await after.json()).toEqual({ user: null, csrfToken: null });
    await page.close();
  });

  it('an operator signs in with an API key behind the link, and sees the person and the audit log', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.url}/`);
    await page.getByRole('button', { name: 'Sign in with an API key instead' }).click();
    await page.getByLabel('API key').fill(ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Signed in, on Ask in a project: the admin pages are under Settings in the navigation.
    await page.getByRole('heading', { name: /^Ask · / }).waitFor(EVENTUALLY);
    await page.getByRole('link', { name: 'People and groups' }).click();
    await page.getByTestId('people').getByText(person.email).waitFor(EVENTUALLY);
    await shot(page, '04-people');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByLabel('Action').fill('auth.sign_in');
    await page.getByTestId('audit-log').getByText(person.name).first().waitFor(EVENTUALLY);
    await shot(page, '05-audit');
    await page.close();
  });
});
