import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

// Each folder may import only folders of a lower rank (or its own): layers point one way.
const RANK: Record<string, number> = {
  gen: 0,
  net: 0,
  json: 0,
  uidp: 0,
  // the statistics every verdict is reached with: pure arithmetic, below all that judges
  verdict: 0,
  errors: 1,
  mapping: 2,
  translate: 3,
  list: 4,
  update: 4,
  hydrate: 4,
  meta: 4,
  upstream: 3,
  // who calls (the one caller identity) is read by the rollout and the stores alike
  auth: 4,
  rollout: 5,
  metrics: 5,
  telemetry: 5,
  shadow: 5,
  // below rollout/: the fleet state the rollout follows is a store of its own
  stores: 4.5,
  operations: 6,
  // the request pipeline both front doors share: above the operations, below the doors
  exchange: 6.5,
  emulator: 6,
  config: 6,
  server: 7,
  // the composition root and its parts: each opens what it needs from below, and closes it
  app: 7.5,
  commands: 8,
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('the house', () => {
  it('every folder of src/ has a rank, and imports only folders below it: no cycles', () => {
    const folders = readdirSync(SRC).filter((f) => statSync(join(SRC, f)).isDirectory());
    expect(folders.filter((f) => RANK[f] === undefined)).toEqual([]);
    const upward: string[] = [];
    for (const file of files(SRC)) {
      const from = relative(SRC, file).split('/')[0] as string;
      if (RANK[from] === undefined) continue; // cli.ts sits above everything
      for (const m of readFileSync(file, 'utf8').matchAll(/from '((?:\.\.\/)+)([a-z-]+)\//g)) {
        const depth = (m[1] as string).length / 3;
        const inner = relative(SRC, file).split('/').length - 1;
        if (depth !== inner) continue; // a path inside the same folder
        const to = m[2] as string;
        if (to !== from && (RANK[to] ?? 99) >= (RANK[from] as number)) upward.push(`${relative(SRC, file)} → ${to}/`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('no module of src/ imports itself round a cycle (type-only imports included)', () => {
    const all = files(SRC).filter((f) => !relative(SRC, f).startsWith('gen/'));
    const known = new Set(all);
    const imports = new Map(
      all.map((file) => {
        const text = readFileSync(file, 'utf8');
        const targets = [...text.matchAll(/^(?:import|export)\b[^;]*?from '(\.[^']+)\.js'/gms)].map((m) => resolve(dirname(file), `${m[1]}.ts`));
        return [file, targets.filter((t) => known.has(t))];
      }),
    );
    const cycles: string[] = [];
    const done = new Set<string>();
    const path: string[] = [];
    const visit = (file: string) => {
      if (path.includes(file)) {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(' → '));
        return;
      }
      if (done.has(file)) return;
      path.push(file);
      for (const next of imports.get(file) ?? []) visit(next);
      path.pop();
      done.add(file);
    };
    for (const file of all) visit(file);
    expect(cycles).toEqual([]);
  });

  it('whether a store is Redis or memory is decided at one place: no other module outside src/stores/ makes one', () => {
    const factory = join(SRC, 'app/stores-part.ts');
    const made: string[] = [];
    for (const file of files(SRC)) {
      if (file === factory || relative(SRC, file).startsWith('stores/')) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(
        /new (Redis\w+|Memory(?:Idempotency|\w*Counters|\w*Store)|KeyedLock|FleetChannel|FleetRoster|FleetDiffReport)\(|(?<!function )(?:openRedis|openMetaStore)\(/g,
      ))
        made.push(`${relative(SRC, file)}: ${m[0]}`);
    }
    expect(made).toEqual([]);
  });
});
