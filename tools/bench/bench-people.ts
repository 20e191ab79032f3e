/**
 * People: how long a sign-in's callback takes (the api exchanges the code with the provider,
 * checks the ID token, finds the person and opens a session) — p50/p95 over a series of real
 * sign-ins through the local Keycloak — and what an authenticated request costs as a person
 * (session cookie with its CSRF token, personal token, OAuth access token) against the same
 * request with an API key, measured in the same run, interleaved. Run: npm run bench:people
 */
import { createHash, randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import {
  ADMIN_KEY,
  MCP_CLIENT,
  providerLogin,
  ensureKeycloak,
  finishSignIn,
  identityEnv,
  ISSUER,
  PROVIDER_ID,
  RealmAdmin,
  signIn,
  startSignIn,
  TroveStack,
} from '@trove/test-support';
import { sizeDefault, writeBenchmarkSections } from '@trove/tools-support';

/** A knob's value, or its default from the command's entry in tools/support/benchmark-commands.ts. */
const size = (name: string) => Number(process.env[name] ?? sizeDefault('npm run bench:people', name));
const SIGN_INS = size('BENCH_SIGN_INS');
const REQUESTS = size('BENCH_REQUESTS');
const QUERY = JSON.stringify({ query: '{ projects { id } }' });

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main() {
  ensureKeycloak();
  const stack = new TroveStack(identityEnv());
  const realm = new RealmAdmin();
  const group = `bench-${Date.now().toString(36)}`;
  await stack.start({ worker: false });
  const person = await realm.user('bench', [group]);
  try {
    const project = await stack.createProject('Bench');
    await stack.query('mutation($input: GrantProjectRoleInput!) { grantProjectRole(input: $input) { id } }', {
      input: { projectId: project, groupName: group, groupProvider: PROVIDER_ID, role: 'VIEWER' },
    });
    // Warm-up: discovery, JWKS, the first provisioning.
    await signIn(stack.url, person);

    const callbacks: number[] = [];
    for (let i = 0; i < SIGN_INS; i++) {
      const pending = await startSignIn(stack.url, person);
      const started = performance.now();
      const response = await finishSignIn(pending);
      callbacks.push(performance.now() - started);
      if (response.status !== 303) throw new Error(`sign-in ${i} failed: ${response.status}`);
    }

    const browser = await signIn(stack.url, person);
    const made = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { ...browser.headers(), 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation { createPersonalToken(input: { name: "bench" }) { secret } }',
      }),
    });
    const pat = ((await made.json()) as { data: { createPersonalToken: { secret: string } } }).data
      .createPersonalToken.secret;
    // An access token for Trove as an MCP client gets one: the public client, PKCE, the person's login.
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(`${ISSUER}/protocol/openid-connect/auth`);
    const redirect = 'http://127.0.0.1:9/callback';
    authorize.search = new URLSearchParams({
      client_id: MCP_CLIENT,
      response_type: 'code',
      redirect_uri: redirect,
      scope: 'openid',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    const code = new URL(await providerLogin(authorize.toString(), person)).searchParams.get('code')!;
    const oauth = (await (
      await fetch(`${ISSUER}/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: MCP_CLIENT,
          code,
          redirect_uri: redirect,
          code_verifier: verifier,
        }),
      })
    ).json()) as { access_token?: string };

    const { createApiKey } = await stack.query<{ createApiKey: { secret: string } }>(
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }',
      { input: { name: 'bench viewer', role: 'VIEWER', projectIds: [project] } },
    );
    const credentials: Record<string, Record<string, string>> = {
      'API key': { 'x-api-key': createApiKey.secret },
      'bootstrap admin key (no catalog read)': { 'x-api-key': ADMIN_KEY },
      'session cookie + CSRF token': browser.headers(),
      'personal token': { authorization: `Bearer ${pat}` },
      ...(oauth.access_token
        ? { 'OAuth access token': { authorization: `Bearer ${oauth.access_token}` } }
        : {}),
    };
    const timings = new Map<string, number[]>(Object.keys(credentials).map((name) => [name, []]));
    for (let i = 0; i < REQUESTS; i++) {
      for (const [name, headers] of Object.entries(credentials)) {
        const started = performance.now();
        const response = await fetch(`${stack.url}/graphql`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: QUERY,
        });
        await response.text();
        if (i > 0) timings.get(name)!.push(performance.now() - started);
        if (!response.ok) throw new Error(`${name}: ${response.status}`);
      }
    }
    const keyP50 = percentile(timings.get('API key')!, 50);
    const keyMean = timings.get('API key')!.reduce((a, b) => a + b, 0) / timings.get('API key')!.length;
    const rows = [...timings].map(([name, values]) => {
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      return `| ${name} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 95))} | ${ms(mean)} | ${name === 'API key' ? '—' : `${ms(mean - keyMean)} (p50 ${ms(percentile(values, 50) - keyP50)})`} |`;
    });
    const section = `## People: sign-in latency and the cost of authenticating as a person

${SIGN_INS} sign-ins of one person through the local Keycloak (${ISSUER}): the time of the api's
callback (\`GET /auth/callback/local\`: the code exchanged with the provider (PKCE), the ID token
checked against its JWKS, the person found and their groups recorded, a session opened), as the
browser waits for it:

| sign-in callback | p50 | p95 | max |
| --- | --- | --- | --- |
| code exchange to session | ${ms(percentile(callbacks, 50))} | ${ms(percentile(callbacks, 95))} | ${ms(Math.max(...callbacks))} |

The same request (\`{ projects { id } }\`, the person a VIEWER of one project through a group, the
API key a VIEWER key of that project) ${REQUESTS - 1} times per credential, interleaved (one of each in
turn, so load drifts alike); the API key is the baseline measured in the same run:

| credential | p50 | p95 | mean | added vs API key (mean) |
| --- | --- | --- | --- | --- |
${rows.join('\n')}

A person's request reads their session or token and their roles (user, groups, grants) from the
catalog on every request, so a deactivation or a group change counts from the next one; that is
the added cost. An OAuth token is also checked against the provider's JWKS (cached keys, an RS256
verification). Load average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')} (a shared 2-core machine).
`;
    // Sizes given are in the command, so a smaller run says "(sizes changed" and never passes for the full one.
    const sizes = ['BENCH_SIGN_INS', 'BENCH_REQUESTS'].filter((k) => process.env[k]);
    writeBenchmarkSections(
      [...sizes.map((k) => `${k}=${process.env[k]}`), 'npm run bench:people'].join(' '),
      section,
    );
    console.log(section);
  } finally {
    await realm.deleteUser(person.id).catch(() => undefined);
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
