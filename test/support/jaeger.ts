import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectEventually, freePort, ROOT } from './services';

/** A span as Jaeger's HTTP API (`/api/traces`) returns it. */
export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: { refType: string; traceID: string; spanID: string }[];
  tags: { key: string; type: string; value: unknown }[];
  processID: string;
}

/** A trace as Jaeger's HTTP API returns it: its spans and the processes (services) that sent them. */
export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

/**
 * A private Jaeger v2 (all-in-one: OTLP over HTTP in, memory storage, the query API out) on free
 * loopback ports, built from the Go module proxy by infra/local/install-jaeger.sh.
 */
export class JaegerServer {
  private process?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'trove-jaeger-'));
  private log = '';
  otlpPort = 0;
  queryPort = 0;

  /** Builds the binary once (several minutes), then reuses it; returns its path. */
  static install(): string {
    return execFileSync('bash', [join(ROOT, 'infra/local/install-jaeger.sh')], { encoding: 'utf8' }).trim();
  }

  /** Where the apps export: the base URL of `OTEL_EXPORTER_OTLP_ENDPOINT` (`/v1/traces` is appended). */
  get otlpEndpoint(): string {
    return `http://127.0.0.1:${this.otlpPort}`;
  }

  get queryUrl(): string {
    return `http://127.0.0.1:${this.queryPort}`;
  }

  async start(binary: string): Promise<void> {
    this.otlpPort = await freePort();
    this.queryPort = await freePort();
    const [grpcPort, healthPort] = [await freePort(), await freePort()];
    const config = join(this.dir, 'jaeger.yaml');
    // The minimum: the OTLP HTTP receiver, memory storage, the query API; no internal metrics port.
    writeFileSync(
      config,
      [
        'service:',
        '  extensions: [jaeger_storage, jaeger_query, healthcheckv2]',
        '  pipelines:',
        '    traces: { receivers: [otlp], processors: [batch], exporters: [jaeger_storage_exporter] }',
        '  telemetry:',
        '    metrics: { level: none }',
        '    logs: { level: warn }',
        'extensions:',
        '  healthcheckv2:',
        '    use_v2: true',
        `    http: { endpoint: "127.0.0.1:${healthPort}" }`,
        '  jaeger_query:',
        '    storage: { traces: memstore }',
        `    http: { endpoint: "127.0.0.1:${this.queryPort}" }`,
        `    grpc: { endpoint: "127.0.0.1:${grpcPort}" }`,
        '  jaeger_storage:',
        '    backends:',
        '      memstore: { memory: { max_traces: 10000 } }',
        'receivers:',
        '  otlp:',
        '    protocols:',
        `      http: { endpoint: "127.0.0.1:${this.otlpPort}" }`,
        'processors:',
        '  batch: { timeout: 100ms }',
        'exporters:',
        '  jaeger_storage_exporter: { trace_storage: memstore }',
        '',
      ].join('\n'),
    );
    this.process = spawn(binary, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    const append = (chunk: Buffer) => (this.log += chunk.toString());
    this.process.stdout!.on('data', append);
    this.process.stderr!.on('data', append);
    await expectEventually(
      async () => {
        this.alive();
        const response = await fetch(`${this.queryUrl}/api/services`);
        if (response.status !== 200) throw new Error(`jaeger query API: ${response.status}`);
      },
      { timeoutMs: 60_000 },
    );
    // The receiver too: a well-formed empty export is accepted.
    await expectEventually(
      async () => {
        this.alive();
        const response = await fetch(`${this.otlpEndpoint}/v1/traces`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"resourceSpans":[]}',
        });
        if (response.status !== 200) throw new Error(`jaeger OTLP receiver: ${response.status}`);
      },
      { timeoutMs: 30_000 },
    );
  }

  /** Throws with Jaeger's output if it has exited. */
  alive(): void {
    if (this.process && this.process.exitCode !== null)
      throw new Error(`jaeger exited (${this.process.exitCode}):\n${this.log}`);
  }

  /** One trace by id; undefined while Jaeger has none of its spans. */
  async trace(traceId: string): Promise<JaegerTrace | undefined> {
    this.alive();
    const response = await fetch(`${this.queryUrl}/api/traces/${traceId}`);
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw new Error(`jaeger /api/traces/${traceId}: ${response.status}`);
    const body = (await response.json()) as { data: JaegerTrace[] };
    return body.data[0];
  }

  /** Every trace a service sent (at most `limit`), as Jaeger stores them. */
  async traces(service: string, limit = 1000): Promise<JaegerTrace[]> {
    this.alive();
    const url = `${this.queryUrl}/api/traces?service=${encodeURIComponent(service)}&limit=${limit}&lookback=1h`;
    const response = await fetch(url);
    if (response.status !== 200) throw new Error(`jaeger ${url}: ${response.status}`);
    return ((await response.json()) as { data: JaegerTrace[] }).data;
  }

  async stop(): Promise<void> {
    if (this.process && this.process.exitCode === null) {
      const exited = new Promise((resolve) => this.process!.once('exit', resolve));
      this.process.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Reads a trace's spans: by name, by service, by tag, and up their parent chain. */
export class TraceView {
  private readonly byId: Map<string, JaegerSpan>;

  constructor(readonly trace: JaegerTrace) {
    this.byId = new Map(trace.spans.map((s) => [s.spanID, s]));
  }

  get spans(): JaegerSpan[] {
    return this.trace.spans;
  }

  service(span: JaegerSpan): string {
    return this.trace.processes[span.processID]?.serviceName ?? '';
  }

  named(name: string): JaegerSpan[] {
    return this.spans.filter((s) => s.operationName === name);
  }

  tag(span: JaegerSpan, key: string): unknown {
    return span.tags.find((t) => t.key === key)?.value;
  }

  parent(span: JaegerSpan): JaegerSpan | undefined {
    const ref = span.references.find((r) => r.refType === 'CHILD_OF');
    return ref ? this.byId.get(ref.spanID) : undefined;
  }

  /** Whether `ancestor` is on `span`'s chain of parents (as far as the trace holds them). */
  descendsFrom(span: JaegerSpan, ancestor: JaegerSpan): boolean {
    for (let at = this.parent(span); at; at = this.parent(at)) if (at.spanID === ancestor.spanID) return true;
    return false;
  }

  /** A one-line-per-span outline, for failure messages. */
  outline(): string {
    return this.spans
      .map((s) => `${this.service(s)} ${s.operationName} ${s.spanID}<-${s.references[0]?.spanID ?? '-'}`)
      .join('\n');
  }
}
