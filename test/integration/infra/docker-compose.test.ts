import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MODEL_PROFILES } from '@trove/embeddings';
import { BUILD_WAIT_MS, installed } from '../../support/installed';
import { ROOT } from '../../support/services';
import { TEMPORAL_DYNAMIC_CONFIG, temporalSettings } from '../../support/temporal-settings';
import { isProviderSetting, troveVariables } from '../../support/trove-variables';

// No Docker engine runs here; `docker compose config` needs none. It resolves, interpolates and
// validates the file against the Compose specification, which is what these tests check.
let compose: string[];
let config: { services: Record<string, Service> };

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
  ports?: { published: string; target: number; host_ip?: string }[];
  volumes?: { type: string; source?: string; target: string }[];
}

function run(args: string[], env: Record<string, string>): string {
  const [command, ...prefix] = compose;
  return execFileSync(command, [...prefix, '-f', join(ROOT, 'docker-compose.yml'), ...args], {
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

beforeAll(async () => {
  const found = await installed('install-compose.sh');
  compose = found === 'docker compose' ? ['docker', 'compose'] : [found];
  config = JSON.parse(
    run(['config', '--format', 'json'], { TROVE_ADMIN_API_KEY: 'compose-test-key-0123456789' }),
  );
}, BUILD_WAIT_MS);

describe('docker-compose.yml', () => {
  it('defines the whole stack', () => {
    expect(Object.keys(config.services).sort()).toEqual(
      [
        'api',
        'catalog-db',
        'elasticsearch',
        'ollama',
        'ollama-pull',
        'ollama-query',
        'postgresql',
        'temporal',
        'temporal-ui',
        'worker',
      ].sort(),
    );
    expect(config.services.elasticsearch.image).toMatch(/elasticsearch:8\.19\.\d+$/);
  });

  it('starts api and worker only after their dependencies are healthy', () => {
    for (const app of ['api', 'worker']) {
      const deps = config.services[app].depends_on!;
      expect(deps['catalog-db'].condition).toBe('service_healthy');
      expect(deps.elasticsearch.condition).toBe('service_healthy');
      expect(deps.temporal.condition).toBe('service_healthy');
      expect(config.services[app].environment!.TROVE_DATABASE_URL).toMatch(
        /^postgres:\/\/trove:.*@catalog-db:5432\/trove$/,
      );
    }
    expect(config.services.worker.depends_on!['ollama-pull'].condition).toBe(
      'service_completed_successfully',
    );
    // Searches embed their queries at their own Ollama (the query lane), once the model is pulled.
    expect(config.services.api.environment!.TROVE_EMBEDDING_QUERY_URL).toBe('http://ollama-query:11434');
    expect(config.services.api.depends_on!['ollama-query'].condition).toBe('service_healthy');
    expect(config.services.api.depends_on!['ollama-pull'].condition).toBe('service_completed_successfully');
    expect(config.services['ollama-query'].volumes?.[0]).toMatchObject({ source: 'ollama-models' });
    for (const service of [
      'catalog-db',
      'elasticsearch',
      'postgresql',
      'temporal',
      'ollama',
      'ollama-query',
      'api',
    ]) {
      expect(config.services[service].healthcheck, service).toBeDefined();
    }
  });

  it('configures the apps only with variables Trove reads, and a known embedding profile', () => {
    const known = troveVariables();
    for (const app of ['api', 'worker']) {
      const env = config.services[app].environment!;
      for (const name of Object.keys(env))
        expect(known.has(name) || isProviderSetting(name), `${app}: ${name}`).toBe(true);
      expect(MODEL_PROFILES[env.TROVE_EMBEDDING_PROFILE], env.TROVE_EMBEDDING_PROFILE).toBeDefined();
    }
    expect(config.services.api.environment!.TROVE_API_HOST).toBe('0.0.0.0');
  });

  it('lets `trove backup` snapshot into a folder Elasticsearch and the api see at one path', () => {
    expect(config.services.elasticsearch.environment!['path.repo']).toBe('/backups');
    const backups = (service: string) =>
      config.services[service].volumes!.find((volume) => volume.target === '/backups');
    expect(backups('elasticsearch')).toMatchObject({ type: 'bind' });
    expect(backups('api')!.source).toBe(backups('elasticsearch')!.source);
  });

  it("runs a Temporal that dispatches the ingest lanes fairly, with Trove's dynamic config", () => {
    const temporal = config.services.temporal;
    // Task queue fairness needs server 1.29 or later.
    const [major, minor] = /:(\d+)\.(\d+)\.\d+$/.exec(temporal.image!)!.slice(1).map(Number);
    expect(major * 1000 + minor, temporal.image).toBeGreaterThanOrEqual(1029);
    const path = temporal.environment!.DYNAMIC_CONFIG_FILE_PATH;
    const mounted = temporal.volumes!.find((volume) => volume.target === path);
    expect(mounted?.source).toBe(TEMPORAL_DYNAMIC_CONFIG);
    expect(temporalSettings().get('matching.enableFairness')).toBe(true);
  });

  it('publishes ports on loopback only', () => {
    for (const [name, service] of Object.entries(config.services)) {
      for (const port of service.ports ?? []) expect(port.host_ip, name).toBe('127.0.0.1');
    }
  });

  it('refuses to start without an admin API key', () => {
    expect(() => run(['config'], {})).toThrow(/TROVE_ADMIN_API_KEY/);
  });
});

describe('docker-compose.yml sign-in settings', () => {
  it('passes the provider (issuer, client id, secret from the environment, redirect URL) to the api only', () => {
    const configured = JSON.parse(
      run(['config', '--format', 'json'], {
        TROVE_ADMIN_API_KEY: 'compose-test-key-0123456789',
        TROVE_OIDC_PROVIDERS: 'sso',
        TROVE_OIDC_SSO_ISSUER: 'https://login.example.com/realms/acme',
        TROVE_OIDC_SSO_CLIENT_ID: 'trove',
        TROVE_OIDC_SSO_CLIENT_SECRET: 'planted-oidc-secret',
        TROVE_OIDC_SSO_REDIRECT_URL: 'https://kb.example.com/auth/callback/sso',
      }),
    ) as { services: Record<string, Service> };
    expect(configured.services.api.environment).toMatchObject({
      TROVE_OIDC_PROVIDERS: 'sso',
      TROVE_OIDC_SSO_ISSUER: 'https://login.example.com/realms/acme',
      TROVE_OIDC_SSO_CLIENT_ID: 'trove',
      TROVE_OIDC_SSO_CLIENT_SECRET: 'planted-oidc-secret',
      TROVE_OIDC_SSO_REDIRECT_URL: 'https://kb.example.com/auth/callback/sso',
    });
    expect(JSON.stringify(configured.services.worker.environment)).not.toContain('planted-oidc-secret');
    // By default no provider: sign-in with API keys only.
    expect(config.services.api.environment!.TROVE_OIDC_PROVIDERS).toBe('');
  });
});
