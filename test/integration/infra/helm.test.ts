import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { BUILD_WAIT_MS, installed } from '../../support/installed';
import { ROOT } from '../../support/services';
import { isProviderSetting, troveVariables } from '../../support/trove-variables';

// No cluster here: `helm lint` and `helm template` need none, and kubeconform validates every
// rendered object against the Kubernetes API's own schemas (and the ServiceMonitor CRD's), which
// install-kubeconform.sh writes to disk from the Go module proxy, so nothing is downloaded.
const CHART = join(ROOT, 'infra/helm/trove');
const PRODUCTION = join(CHART, 'ci/production-values.yaml');

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- objects of many kinds, read field by field; kubeconform checks their shape
  spec?: Record<string, any>;
  data?: Record<string, string>;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}

let helm: string;
let kubeconform: string;

function run(command: string, args: string[], input?: string): string {
  return execFileSync(command, args, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** The command's combined output when it fails; throws when it succeeds. */
function failure(command: string, args: string[]): string {
  try {
    run(command, args);
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    return `${stdout}\n${stderr}`;
  }
  throw new Error(`${command} ${args.join(' ')} succeeded`);
}

function template(args: string[] = []): { text: string; objects: Manifest[] } {
  const text = run(helm, ['template', 'trove', CHART, '--namespace', 'kb', ...args]);
  const objects = parseAllDocuments(text)
    .map((document) => document.toJS() as Manifest | null)
    .filter((object): object is Manifest => object !== null);
  return { text, objects };
}

/** Validates every object with kubeconform; returns how many it found valid. */
function validate(text: string): number {
  let output: string;
  try {
    output = run(kubeconform, ['-output', 'json', '-verbose', '-summary', '-'], text);
  } catch (error) {
    // Exit code 1: some object is invalid; the report says which and why.
    output = (error as { stdout: string }).stdout;
  }
  const report = JSON.parse(output) as {
    resources: { kind: string; name: string; status: string; msg: string }[];
  };
  const notValid = report.resources.filter((resource) => resource.status !== 'statusValid');
  expect(notValid).toEqual([]);
  return report.resources.length;
}

function find(objects: Manifest[], kind: string, name: string): Manifest {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found)
    throw new Error(`no ${kind} ${name} in ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
}

function container(deployment: Manifest) {
  return deployment.spec!.template.spec.containers[0] as {
    command: string[];
    env: EnvVar[];
    envFrom: { configMapRef: { name: string } }[];
    livenessProbe?: { httpGet?: { path: string; port: string } };
    readinessProbe?: { httpGet?: { path: string; port: string } };
    securityContext: Record<string, unknown>;
    ports?: { name: string; containerPort: number }[];
  };
}

beforeAll(async () => {
  helm = await installed('install-helm.sh');
  kubeconform = await installed('install-kubeconform.sh');
}, BUILD_WAIT_MS);

describe('the Helm chart', () => {
  it('passes helm lint with the default and the production-like values', () => {
    expect(run(helm, ['lint', '--strict', CHART])).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    expect(run(helm, ['lint', '--strict', CHART, '-f', PRODUCTION])).toMatch(/0 chart\(s\) failed/);
  });

  it('refuses bad values in helm lint (values.schema.json)', () => {
    const lint = (set: string) => failure(helm, ['lint', CHART, '--set', set]);
    expect(lint('worker.slots.bulk=0')).toMatch(/\/worker\/slots\/bulk': minimum/);
    expect(lint('wroker.replicas=3')).toMatch(/additional properties 'wroker' not allowed/);
    expect(lint('embedding.provider=cohere')).toMatch(/\/embedding\/provider': value must be one of/);
    expect(lint('secrets.adminApiKey=too-short')).toMatch(/\/secrets\/adminApiKey'/);
    expect(lint('config.TROVE_ADMIN_API_KEY=in-a-configmap')).toMatch(
      /invalid propertyName 'TROVE_ADMIN_API_KEY'/,
    );
    // A ServiceMonitor (or the autoscaler) without metrics would scrape nothing.
    expect(lint('metrics.serviceMonitor.enabled=true')).toMatch(/\/metrics\/enabled': value must be true/);
    expect(lint('worker.autoscaling.enabled=true')).toMatch(/\/metrics\/enabled': value must be true/);
    // A NetworkPolicy with metrics on must name who may scrape the worker, or nobody could.
    expect(
      failure(helm, ['lint', CHART, '--set', 'networkPolicy.enabled=true', '--set', 'metrics.enabled=true']),
    ).toMatch(/\/networkPolicy\/metrics\/from': minItems/);
  });

  it('renders the default install as valid Kubernetes objects, the api probed and nothing optional on', () => {
    const { text, objects } = template();
    expect(validate(text)).toBe(objects.length);
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'ConfigMap/trove-config',
      'Deployment/trove-api',
      'Deployment/trove-worker',
      'PersistentVolumeClaim/trove-blobs',
      'Secret/trove-secrets',
      'Service/trove-api',
      'ServiceAccount/trove',
    ]);
    const api = container(find(objects, 'Deployment', 'trove-api'));
    expect(api.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(api.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(api.ports).toEqual([{ name: 'http', containerPort: 4000, protocol: 'TCP' }]);

    const worker = find(objects, 'Deployment', 'trove-worker');
    expect(worker.spec!.replicas).toBe(1);
    const slots = Object.fromEntries(
      container(worker)
        .env.filter((e) => /ACTIVITIES$/.test(e.name))
        .map((e) => [e.name, e.value]),
    );
    expect(slots).toEqual({
      TROVE_WORKER_MAX_CONCURRENT_ACTIVITIES: '12',
      TROVE_WORKER_CONTROL_ACTIVITIES: '8',
      TROVE_WORKER_INTERACTIVE_ACTIVITIES: '2',
    });
  });

  it('keeps blobs in a bucket with objectStorage on: no claim at all, so no ReadWriteMany', () => {
    const planted = {
      'secrets.s3AccessKeyId': 'AKIAPLANTEDKEY0001',
      'secrets.s3SecretAccessKey': 'planted-s3-secret',
    };
    const { text, objects } = template([
      '--set',
      'objectStorage.enabled=true',
      '--set',
      'objectStorage.bucket=trove-originals',
      '--set',
      'objectStorage.endpoint=https://s3.example.internal',
      '--set',
      'objectStorage.serverSideEncryption=aws:kms',
      '--set',
      'objectStorage.sseKmsKeyId=alias/trove',
      '--set',
      'worker.replicas=3',
      ...Object.entries(planted).flatMap(([key, value]) => ['--set', `${key}=${value}`]),
    ]);
    expect(validate(text)).toBe(objects.length);
    expect(objects.filter((o) => o.kind === 'PersistentVolumeClaim')).toEqual([]);
    expect(text).not.toContain('ReadWriteMany');
    for (const name of ['trove-api', 'trove-worker']) {
      const volumes = find(objects, 'Deployment', name).spec!.template.spec.volumes as {
        name: string;
        emptyDir?: unknown;
        persistentVolumeClaim?: unknown;
      }[];
      expect(
        volumes.filter((v) => v.persistentVolumeClaim),
        name,
      ).toEqual([]);
      expect(volumes.find((v) => v.name === 'blobs')?.emptyDir, name).toBeDefined();
    }
    expect(find(objects, 'ConfigMap', 'trove-config').data).toMatchObject({
      TROVE_BLOB_STORE: 's3',
      TROVE_S3_BUCKET: 'trove-originals',
      TROVE_S3_ENDPOINT: 'https://s3.example.internal',
      TROVE_S3_SSE: 'aws:kms',
      TROVE_S3_SSE_KMS_KEY_ID: 'alias/trove',
    });
    // Every setting the chart gives is one Trove reads (TROVE_DB_PASSWORD is expanded into the URL).
    const known = troveVariables();
    const secret = find(objects, 'Secret', 'trove-secrets');
    const given = [
      ...Object.keys(find(objects, 'ConfigMap', 'trove-config').data!),
      ...Object.keys(secret.data!),
    ];
    expect(given.filter((name) => !known.has(name) && name !== 'TROVE_DB_PASSWORD')).toEqual([]);
    expect(Buffer.from(secret.data!.TROVE_S3_SECRET_ACCESS_KEY, 'base64').toString()).toBe(
      'planted-s3-secret',
    );
    for (const object of objects.filter((o) => o.kind !== 'Secret')) {
      for (const value of Object.values(planted)) expect(JSON.stringify(object)).not.toContain(value);
    }
    // Without a bucket the values are refused before anything is rendered.
    expect(failure(helm, ['lint', CHART, '--set', 'objectStorage.enabled=true'])).toMatch(
      /\/objectStorage\/bucket': minLength/,
    );
  });

  it('runs both apps as non-root on a read-only root filesystem', () => {
    for (const args of [[], ['-f', PRODUCTION]]) {
      const { objects } = template(args);
      for (const name of ['trove-api', 'trove-worker']) {
        const deployment = find(objects, 'Deployment', name);
        expect(deployment.spec!.template.spec.securityContext.runAsNonRoot, name).toBe(true);
        expect(container(deployment).securityContext, name).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
      }
    }
  });

  it('keeps every secret out of ConfigMaps and pod specs', () => {
    const planted = {
      'secrets.adminApiKey': 'planted-admin-key-0123456789',
      'secrets.secretKey': 'planted-encryption-key',
      'secrets.databasePassword': 'planted-db-password',
      'secrets.elasticsearchPassword': 'planted-es-password',
      'secrets.embeddingApiKey': 'planted-embedding-key',
      'secrets.llmApiKey': 'planted-llm-key',
      'secrets.rerankApiKey': 'planted-rerank-key',
      'secrets.metricsToken': 'planted-metrics-token',
    };
    const set = Object.entries(planted).flatMap(([key, value]) => ['--set', `${key}=${value}`]);
    const { objects } = template([
      ...set,
      '--set',
      'metrics.enabled=true',
      '--set',
      'elasticsearch.username=elastic',
    ]);
    const secret = find(objects, 'Secret', 'trove-secrets');
    for (const value of Object.values(planted)) {
      expect(Object.values(secret.data!).map((v) => Buffer.from(v, 'base64').toString())).toContain(value);
      for (const object of objects.filter((o) => o.kind !== 'Secret')) {
        expect(JSON.stringify(object), `${object.kind}/${object.metadata.name}`).not.toContain(value);
      }
    }
    const env = container(find(objects, 'Deployment', 'trove-api')).env;
    const byName = new Map(env.map((e) => [e.name, e]));
    // Kubernetes expands $(VAR) only from variables defined before it.
    expect(env.findIndex((e) => e.name === 'TROVE_DB_PASSWORD')).toBeLessThan(
      env.findIndex((e) => e.name === 'TROVE_DATABASE_URL'),
    );
    expect(byName.get('TROVE_DATABASE_URL')?.value).toBe(
      'postgres://trove:$(TROVE_DB_PASSWORD)@trove-db-postgresql:5432/trove',
    );
    expect(byName.get('TROVE_ES_URL')?.value).toBe(
      'http://elastic:$(TROVE_ES_PASSWORD)@elasticsearch-master:9200',
    );
  });

  it('uses an existing Secret and the official charts’ secrets with the production-like values', () => {
    const { text, objects } = template(['-f', PRODUCTION]);
    expect(validate(text)).toBe(objects.length);
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    for (const name of ['trove-api', 'trove-worker']) {
      const refs = Object.fromEntries(
        container(find(objects, 'Deployment', name))
          .env.filter((e) => e.valueFrom?.secretKeyRef)
          .map((e) => [e.name, e.valueFrom!.secretKeyRef]),
      );
      expect(refs.TROVE_ADMIN_API_KEY).toEqual({ name: 'trove-secrets', key: 'TROVE_ADMIN_API_KEY' });
      expect(refs.TROVE_METRICS_TOKEN).toEqual({ name: 'trove-secrets', key: 'TROVE_METRICS_TOKEN' });
      expect(refs.TROVE_DB_PASSWORD).toEqual({ name: 'trove-db-postgresql', key: 'password' });
      expect(refs.TROVE_ES_PASSWORD).toEqual({ name: 'elasticsearch-master-credentials', key: 'password' });
    }

    const ingress = find(objects, 'Ingress', 'trove');
    expect(ingress.spec!.rules[0].host).toBe('kb.example.com');
    expect(ingress.spec!.rules[0].http.paths[0].backend.service).toEqual({
      name: 'trove-api',
      port: { name: 'http' },
    });
    expect(find(objects, 'ConfigMap', 'trove-config').data!.TROVE_PUBLIC_URL).toBe('https://kb.example.com');

    // The autoscaler owns the worker's replica count (from 3); the Deployment leaves it alone.
    expect(find(objects, 'Deployment', 'trove-worker').spec!.replicas).toBeUndefined();
    const hpa = find(objects, 'HorizontalPodAutoscaler', 'trove-worker');
    expect(hpa.spec).toMatchObject({ minReplicas: 3, maxReplicas: 10 });
    expect(hpa.spec!.metrics[0].external.metric).toEqual({
      name: 'trove_task_queue_backlog',
      selector: { matchLabels: { lane: 'bulk' } },
    });

    const monitor = find(objects, 'ServiceMonitor', 'trove');
    expect(monitor.spec!.endpoints.map((e: { port: string }) => e.port)).toEqual(['http', 'metrics']);
    for (const endpoint of monitor.spec!.endpoints) {
      expect(endpoint.path).toBe('/metrics');
      expect(endpoint.authorization.credentials).toEqual({
        name: 'trove-secrets',
        key: 'TROVE_METRICS_TOKEN',
      });
    }
    expect(find(objects, 'Service', 'trove-worker-metrics').spec!.ports[0].port).toBe(9464);

    // NetworkPolicies: the api's HTTP port from the ingress controller only; the worker's metrics
    // port from the monitoring namespace only, and nothing else of the worker.
    const apiPolicy = find(objects, 'NetworkPolicy', 'trove-api').spec!;
    expect(apiPolicy.podSelector.matchLabels).toMatchObject({ 'app.kubernetes.io/component': 'api' });
    expect(apiPolicy.ingress).toEqual([
      {
        ports: [{ port: 'http', protocol: 'TCP' }],
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
      },
    ]);
    const workerPolicy = find(objects, 'NetworkPolicy', 'trove-worker').spec!;
    expect(workerPolicy.podSelector.matchLabels).toMatchObject({ 'app.kubernetes.io/component': 'worker' });
    expect(workerPolicy.policyTypes).toEqual(['Ingress']);
    expect(workerPolicy.ingress).toEqual([
      {
        ports: [{ port: 'metrics', protocol: 'TCP' }],
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
      },
    ]);
    // Every port a policy names is one its pods declare.
    expect(container(find(objects, 'Deployment', 'trove-worker')).ports).toContainEqual(
      expect.objectContaining({ name: 'metrics' }),
    );
  });

  it('with a NetworkPolicy and metrics off, nothing reaches the worker', () => {
    const { text, objects } = template(['--set', 'networkPolicy.enabled=true']);
    expect(validate(text)).toBe(objects.length);
    expect(find(objects, 'NetworkPolicy', 'trove-worker').spec!.ingress).toEqual([]);
    // No peers named for the api: its HTTP port from anywhere, and no other port.
    expect(find(objects, 'NetworkPolicy', 'trove-api').spec!.ingress).toEqual([
      { ports: [{ port: 'http', protocol: 'TCP' }] },
    ]);
  });

  it('configures the apps only with variables Trove reads, started the way docker-compose.yml starts them', () => {
    const known = troveVariables();
    // Parts of URLs Kubernetes assembles (see the chart's trove.env).
    for (const name of ['TROVE_DB_PASSWORD', 'TROVE_ES_PASSWORD']) known.add(name);
    const { objects } = template(['-f', PRODUCTION]);
    const names = [
      ...Object.keys(find(objects, 'ConfigMap', 'trove-config').data!),
      ...['trove-api', 'trove-worker'].flatMap((name) =>
        container(find(objects, 'Deployment', name)).env.map((e) => e.name),
      ),
    ].filter((name) => name.startsWith('TROVE_'));
    expect(names.filter((name) => !known.has(name) && !isProviderSetting(name))).toEqual([]);

    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, { command: string[]; environment: Record<string, string> }>;
    };
    for (const app of ['api', 'worker']) {
      expect(container(find(objects, 'Deployment', `trove-${app}`)).command).toEqual(
        compose.services[app].command,
      );
    }
    expect(compose.services.api.environment.TROVE_API_PORT).toBe(
      find(objects, 'ConfigMap', 'trove-config').data!.TROVE_API_PORT,
    );
  });

  it('gives the api each sign-in provider, its client secret from the Secret named in the values', () => {
    const provider = (key: string, value: string) => ['--set', `signIn.providers[0].${key}=${value}`];
    const { text, objects } = template([
      ...provider('id', 'company'),
      ...provider('name', 'Company account'),
      ...provider('issuer', 'https://login.example.com/realms/acme'),
      ...provider('clientId', 'trove'),
      ...provider('clientSecret.name', 'trove-oidc'),
      ...provider('clientSecret.key', 'client-secret'),
      ...provider('redirectUrl', 'https://kb.example.com/auth/callback/company'),
      ...provider('audience', 'trove'),
    ]);
    expect(validate(text)).toBe(objects.length);
    const env = new Map(container(find(objects, 'Deployment', 'trove-api')).env.map((e) => [e.name, e]));
    expect(env.get('TROVE_OIDC_PROVIDERS')?.value).toBe('company');
    expect(env.get('TROVE_OIDC_COMPANY_ISSUER')?.value).toBe('https://login.example.com/realms/acme');
    expect(env.get('TROVE_OIDC_COMPANY_CLIENT_ID')?.value).toBe('trove');
    expect(env.get('TROVE_OIDC_COMPANY_REDIRECT_URL')?.value).toBe(
      'https://kb.example.com/auth/callback/company',
    );
    expect(env.get('TROVE_OIDC_COMPANY_CLIENT_SECRET')?.valueFrom?.secretKeyRef).toEqual({
      name: 'trove-oidc',
      key: 'client-secret',
    });
    const worker = container(find(objects, 'Deployment', 'trove-worker')).env.map((e) => e.name);
    expect(worker.filter((name) => name.startsWith('TROVE_OIDC_'))).toEqual([]);
    expect(
      failure(helm, [
        'lint',
        CHART,
        ...provider('id', 'Bad Id'),
        ...provider('issuer', 'http://x'),
        ...provider('clientId', 'c'),
      ]),
    ).toMatch(/signIn/);
  });
});
