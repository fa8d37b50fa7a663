import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { RunningProxy } from '../../src/commands/serve.js';
import { call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { repoPath } from '../support/kustomize-build.js';
import { startProxy } from '../support/proxy-harness.js';
import { HAVE_REDIS, type RedisServer, startRedisServer } from '../support/redis-server.js';

type Rule = { alert: string; expr: string; for?: string; labels: { severity: string }; annotations: { summary: string } };
const rules = parseYaml(readFileSync(repoPath('deploy/prometheus/v2proxy-rules.yaml'), 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
const dashboard = JSON.parse(readFileSync(repoPath('deploy/grafana/v2proxy-dashboard.json'), 'utf8')) as {
  panels: { type: string; title: string; targets?: { expr: string }[] }[];
};
const dashboardExprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: p.title, expr: t.expr })));
const ruleExprs = rules.groups.flatMap((g) => g.rules.map((r) => ({ where: r.alert, expr: r.expr })));

/** A PromQL expression's syntax errors (Grafana's range variables read as a duration) and the metrics it names. */
function readPromql(expr: string): { errors: number; metrics: string[] } {
  const text = expr.replaceAll('$__rate_interval', '5m').replaceAll('$__range', '1h');
  let errors = 0;
  const metrics: string[] = [];
  parser.parse(text).iterate({
    enter: (node) => {
      if (node.type.isError) errors += 1;
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') metrics.push(text.slice(node.from, node.to));
    },
  });
  return { errors, metrics };
}

describe('the dashboard and the alert rules (deploy/)', () => {
  it('every expression parses as PromQL, and the parser does refuse a broken one', () => {
    const broken = [...dashboardExprs, ...ruleExprs].filter((e) => readPromql(e.expr).errors > 0).map((e) => e.where);
    expect(broken).toEqual([]);
    expect(readPromql('sum(rate(v2proxy_requests_total[5m])').errors).toBeGreaterThan(0);
    expect(dashboardExprs.length).toBeGreaterThan(15);
  });

  it('the rules say what a fleet needs said (a route rolled back or aborted, the kill switch, stale control state, an open breaker, native errors above translation), each with a severity and a summary', () => {
    const all = rules.groups.flatMap((g) => g.rules);
    for (const r of all) expect([r.alert, typeof r.labels?.severity, typeof r.annotations?.summary]).toEqual([r.alert, 'string', 'string']);
    const named = (metric: string) => all.filter((r) => readPromql(r.expr).metrics.includes(metric)).map((r) => r.alert);
    expect(named('v2proxy_route_rolled_back')).toHaveLength(1);
    expect(named('v2proxy_rollout_state')).toHaveLength(1);
    expect(named('v2proxy_kill_switch')).toHaveLength(1);
    expect(named('v2proxy_control_stale_seconds')).toHaveLength(1);
    expect(named('v2proxy_circuit_open')).toHaveLength(1);
    expect(named('v2proxy_requests_total')).toEqual(['V2ProxyNativeErrorsAboveTranslation']);
  });

  describe.skipIf(!HAVE_REDIS)('against the metrics a running fleet replica exports', () => {
    let redis: RedisServer;
    let h: EmulatorHarness;
    let proxy: RunningProxy;
    beforeAll(async () => {
      redis = await startRedisServer();
      h = await startHarness();
      const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-metrics-')), 'rollout.yaml');
      // a progressive route and a shadowed one: every rollout metric has its series
      writeFileSync(
        file,
        'routes:\n  - resource: tags\n    operations: [list]\n    steps:\n      - native: 50\n      - native: 100\n  - resource: groups\n    shadow: 100\n    verifyWrites: 100\n',
      );
      proxy = await startProxy({
        V1_BASE_URL: h.url,
        V2_BASE_URL: h.v2url,
        REDIS_URL: redis.url,
        ROLLOUT_FILE: file,
        ADMIN_TOKEN: 'admin-token-for-metrics-0123',
      });
    });
    afterAll(async () => {
      await proxy?.close();
      await h?.close();
      await redis?.stop();
    });

    it('every metric the dashboard and the rules name is one the proxy exports', async () => {
      const text = (await call(proxy.url, 'GET', '/metrics')).body as string;
      const exported = new Set<string>();
      for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
        exported.add(name as string);
        if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exported.add(`${name}${suffix}`);
      }
      const named = new Set([...dashboardExprs, ...ruleExprs].flatMap((e) => readPromql(e.expr).metrics));
      expect(named.size).toBeGreaterThan(15);
      expect([...named].filter((m) => !exported.has(m))).toEqual([]);
      // and the dashboard shows each v2proxy metric there is
      const shown = new Set(dashboardExprs.flatMap((e) => readPromql(e.expr).metrics.map((m) => m.replace(/_(bucket|sum|count)$/, ''))));
      const v2proxy = [...exported].filter((m) => m.startsWith('v2proxy_') && !/_(bucket|sum|count)$/.test(m));
      expect(v2proxy.filter((m) => !shown.has(m))).toEqual([]);
    });
  });
});
