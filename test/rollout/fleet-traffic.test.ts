import { describe, expect, it } from 'vitest';
import { FleetTraffic } from '../../src/rollout/fleet-traffic.js';
import { parseRollout } from '../../src/rollout/rollout-config.js';
import { firstSnapshot } from '../../src/rollout/rollout-snapshot.js';
import { MemoryAnalysisCounters } from '../../src/stores/memory-analysis-counters.js';
import { type TrafficCount, TrafficCounters } from '../../src/stores/traffic-counters.js';

const MINUTE = 60_000;
const KNOWN = new Map([
  ['groups', ['list', 'get'] as const],
  ['tags', ['list'] as const],
]);

function snapshot(text: string) {
  const parsed = parseRollout(text);
  if (!parsed.ok) throw new Error(parsed.error);
  const local = { file: 'rollout.yaml', config: parsed.config, digest: 'd', loadedAt: 0, lastError: null, refused: null, rollbacks: {} };
  return firstSnapshot(local, () => ({ ok: true, config: parsed.config }));
}

/** Counters that fail every add while `away` is set, and keep what they took. */
function flakyCounters(away: { now: boolean }) {
  const sent: TrafficCount[] = [];
  const counters = {
    add: async (counts: readonly TrafficCount[]) => {
      if (away.now) throw new Error('redis is away');
      sent.push(...counts);
    },
    read: async () => ({}),
  };
  return { counters, sent };
}

describe("the fleet's traffic figures", () => {
  it('every known operation is a row with its route and shares; the last five minutes counted per side, older ones left out', async () => {
    let now = 10 * MINUTE;
    const counters = new TrafficCounters(new MemoryAnalysisCounters(() => now));
    const traffic = new FleetTraffic({ counters, now: () => now, failed: () => undefined });
    const s = snapshot('routes:\n  - resource: groups\n    operations: [get]\n    native: 30\n');
    traffic.count('groups', 'get', 'native', true, 4);
    traffic.count('groups', 'get', 'translate', false, 2);
    await traffic.flush();
    now += 4 * MINUTE;
    traffic.count('groups', 'get', 'native', false, 8);
    // (not sent yet: this replica's own counts show at once)
    const rows = await traffic.rows(KNOWN, s, true);
    expect(rows.map((r) => `${r.resource} ${r.operation} ${r.route} ${r.native}/${r.effectiveNative}`)).toEqual([
      'groups list null 0/0',
      'groups get groups|get 30/30',
      'tags list null 0/0',
    ]);
    const get = rows[1];
    expect(get?.sides.native).toMatchObject({ served: 2, errors: 1, errorRate: 0.5 });
    expect(get?.sides.translate).toMatchObject({ served: 1, errors: 0, errorRate: 0 });
    expect(get?.sides.native.p99Ms).toBeGreaterThanOrEqual(8);
    // without a native backend nothing is effectively native
    expect((await traffic.rows(KNOWN, s, false))[1]?.effectiveNative).toBe(0);
    await traffic.flush();
    now += 2 * MINUTE;
    // the first minute is past the window
    expect((await traffic.rows(KNOWN, s, true))[1]?.sides.native).toMatchObject({ served: 1, errors: 0 });
  });

  it('counters that are away lose no count and count none twice: the send in doubt sent again first, the failure told once a minute', async () => {
    const now = 10 * MINUTE;
    const away = { now: true };
    const { counters, sent } = flakyCounters(away);
    const told: unknown[] = [];
    const traffic = new FleetTraffic({ counters, now: () => now, failed: (err) => told.push(err) });
    traffic.count('tags', 'list', 'translate', false, 1);
    await traffic.flush();
    traffic.count('tags', 'list', 'translate', false, 1);
    await traffic.flush();
    expect(told).toHaveLength(1);
    away.now = false;
    await traffic.flush();
    // the send in doubt again, then what came meanwhile: both counts, each once
    expect(sent.map((c) => [c.resource, c.operation, c.minute, c.counts['r.t']])).toEqual([
      ['tags', 'list', 10, 1],
      ['tags', 'list', 10, 1],
    ]);
  });

  it('closed, it sends what is left at once; what counters that are away cannot take is answered as lost', async () => {
    const now = 10 * MINUTE;
    const away = { now: false };
    const { counters, sent } = flakyCounters(away);
    const traffic = new FleetTraffic({ counters, now: () => now, failed: () => undefined });
    traffic.start();
    traffic.count('tags', 'list', 'native', false, 1);
    expect(await traffic.close()).toBe(0);
    expect(sent.map((c) => [c.resource, c.operation, c.counts['r.n']])).toEqual([['tags', 'list', 1]]);
    away.now = true;
    traffic.count('tags', 'list', 'native', false, 1);
    traffic.count('groups', 'get', 'native', false, 1);
    expect(await traffic.close()).toBe(2);
  });
});
