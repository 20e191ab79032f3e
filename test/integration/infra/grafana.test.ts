import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectProcessMetrics, metricsRegistry } from '@trove/metrics';
import { BUILD_WAIT_MS, installed } from '../../support/installed';
import { ROOT } from '../../support/services';

// The Grafana dashboard (infra/grafana/trove.json) asks only for metrics Trove exports, by labels
// they have, in PromQL that Prometheus's own parser accepts (`promtool check rules`, built from
// the Go module proxy by infra/local/install-prometheus.sh).
interface Panel {
  title: string;
  type: string;
  targets: { expr: string }[];
  gridPos: { x: number; y: number; w: number; h: number };
}
const dashboard = JSON.parse(readFileSync(join(ROOT, 'infra/grafana/trove.json'), 'utf8')) as {
  uid: string;
  panels: Panel[];
  templating: { list: { name: string }[] };
};
/** The expressions as Prometheus would get them: Grafana's variables replaced. */
const expressions = dashboard.panels.flatMap((panel) =>
  panel.targets.map((target) => ({
    panel: panel.title,
    expr: target.expr.replaceAll('$__rate_interval', '5m').replaceAll('$job', '.*'),
  })),
);

let promtool: string;
let dir: string;
beforeAll(async () => {
  // Built from the Go module proxy once (several minutes), then reused.
  promtool = (await installed('install-prometheus.sh')).split('\n')[1];
  dir = mkdtempSync(join(tmpdir(), 'trove-grafana-'));
}, BUILD_WAIT_MS);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Grafana dashboard', () => {
  it('shows ingest throughput, backlog, errors and search latency, with a job and a datasource variable', () => {
    const titles = dashboard.panels.map((p) => p.title.toLowerCase()).join(' | ');
    for (const topic of ['throughput', 'backlog', 'fail', 'search latency'])
      expect(titles, topic).toContain(topic);
    expect(dashboard.templating.list.map((v) => v.name).sort()).toEqual(['datasource', 'job']);
    expect(new Set(dashboard.panels.map((p) => JSON.stringify(p.gridPos))).size).toBe(
      dashboard.panels.length,
    );
  });

  it('queries only metrics Trove exports, by labels they have', async () => {
    collectProcessMetrics();
    const exported = new Map<string, Set<string>>();
    for (const metric of metricsRegistry.getMetricsAsArray()) {
      const {
        name,
        labelNames = [],
        type,
      } = metric as unknown as {
        name: string;
        labelNames?: string[];
        type: string;
      };
      const labels = new Set([...labelNames, 'job', 'instance']);
      if (type === 'histogram') {
        exported.set(`${name}_bucket`, new Set([...labels, 'le']));
        exported.set(`${name}_sum`, labels);
        exported.set(`${name}_count`, labels);
      } else exported.set(name, labels);
    }
    for (const { panel, expr } of expressions) {
      const names = [...expr.matchAll(/\b(trove_[a-z_]+)/g)].map((m) => m[1]);
      expect(names.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      for (const name of names) {
        expect(exported.has(name), `${panel}: ${name} is not a metric Trove exports`).toBe(true);
        const labels = exported.get(name)!;
        // Labels in a selector right after the name, and in by (...) clauses of the expression.
        const selector = new RegExp(`${name}\\{([^}]*)\\}`).exec(expr)?.[1] ?? '';
        const used = [
          ...[...selector.matchAll(/([a-z_]+)\s*(=~|!=|!~|=)/g)].map((m) => m[1]),
          ...[...expr.matchAll(/by \(([^)]*)\)/g)].flatMap((m) => m[1].split(',').map((l) => l.trim())),
        ];
        for (const label of used)
          expect(labels.has(label), `${panel}: ${name} has no label ${label}`).toBe(true);
      }
    }
  });

  it('is valid PromQL for Prometheus itself (promtool check rules)', () => {
    const rules = [
      'groups:',
      '  - name: trove-dashboard',
      '    rules:',
      ...expressions.map(
        ({ expr }, i) => `      - record: trove:dashboard_${i}\n        expr: ${JSON.stringify(expr)}`,
      ),
    ].join('\n');
    const file = join(dir, 'dashboard-rules.yml');
    writeFileSync(file, `${rules}\n`);
    const result = spawnSync(promtool, ['check', 'rules', file], { encoding: 'utf8' });
    expect(result.stdout + result.stderr).toContain(`SUCCESS: ${expressions.length} rules found`);
    expect(result.status).toBe(0);
  });
});
