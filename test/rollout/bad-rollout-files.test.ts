// No edit of the rollout file can stop the proxy: each kind of bad value, saved into the watched
// file of a running `v2proxy serve` (its own process), is refused with its path in one line and the
// last good configuration stays; at start the same files stop the process with that one line.
import { execFileSync, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import { DEFAULT_FILE_BOUNDS, RolloutFileReader } from '../../src/rollout/rollout-file-reader.js';
import { startRollout } from '../../src/rollout/start-rollout.js';
import { call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, TOKENS } from '../support/fixtures.js';
import { until } from '../support/until.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TSX = import.meta.resolve('tsx');
const ADMIN = 'admin-token-of-the-bad-files';
const GOOD = 'routes:\n  - resource: groups\n    operations: [get]\n    native: 100\n';
const progressive = (step: string, analysis = '') => `routes:\n  - resource: tags\n    operations: [list]\n    steps:\n${step}${analysis}`;

// another kind of file saved at the path (the lines of a password file)
const SHADOW = 'root:$6$a-password-hash-never-shown:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n';

/** Each kind of bad value, and how its refusal names it (after `<file>: `). */
const BAD: [string, string, string | RegExp][] = [
  [
    'a duration in words',
    progressive('      - native: 100\n', '    analysis:\n      interval: 2 seconds\n'),
    'routes[0].analysis.interval: must be seconds (a number) or a duration such as 60s, 10m, 1h',
  ],
  [
    'a pause in words',
    progressive('      - native: 10\n        pause: 5 seconds\n      - native: 100\n'),
    'routes[0].steps[0].pause: must be seconds (a number) or a duration such as 60s, 10m, 1h',
  ],
  ['an interval too short', progressive('      - native: 100\n', '    analysis: { interval: 50ms }\n'), 'routes[0].analysis.interval: must be at least 100ms'],
  ['a share out of range', 'routes:\n  - resource: groups\n    native: 130\n', 'routes[0].native: must be at most 100'],
  [
    'an unknown operation',
    'routes:\n  - resource: groups\n    operations: [lst]\n',
    'routes[0].operations[0]: is not one of list, get, create, update, delete',
  ],
  ['an unknown resource', 'routes:\n  - resource: grups\n', /^routes\[0\]\.resource: not a known resource; known: accountAssociations, /],
  [
    'an operation the resource has not',
    'routes:\n  - resource: tags\n    operations: [create]\n',
    'routes[0].operations: tags has no create; it has list, get',
  ],
  [
    'a last step below 100 %',
    progressive('      - native: 10\n      - native: 50\n'),
    'routes[0].steps[1].native: the last step must be native: 100 (reaching it promotes the route); it is 50',
  ],
  [
    'steps and a fixed share',
    'routes:\n  - resource: tags\n    native: 10\n    steps:\n      - native: 100\n',
    'routes[0]: give either native (a fixed share) or steps, not both',
  ],
  [
    'a route named twice',
    'routes:\n  - resource: tags\n    operations: [list, get]\n  - resource: tags\n    operations: [get, list]\n',
    'routes[1]: the same route as routes[0] (tags [get, list]): give each route once',
  ],
  [
    'writes verified on a route of reads',
    'routes:\n  - resource: tags\n    operations: [list, get]\n    verifyWrites: 10\n',
    'routes[0].verifyWrites: the route has no writes to verify (its operations: list, get)',
  ],
  ['a share of writes over 100', 'routes:\n  - resource: groups\n    verifyWrites: 101\n', 'routes[0].verifyWrites: must be at most 100'],
  [
    'a write diff check with no writes verified',
    'routes:\n  - resource: groups\n    operations: [update]\n    steps:\n      - native: 100\n    analysis: { maxWriteDiffRate: 0.01 }\n',
    'routes[0].analysis.maxWriteDiffRate: judges verified writes; give the route a verifyWrites share',
  ],
  ['analysis without steps', 'routes:\n  - resource: tags\n    analysis: { minRequests: 5 }\n', 'routes[0].analysis: only a route with steps is analysed'],
  ['no steps at all', 'routes:\n  - resource: tags\n    steps: []\n', 'routes[0].steps: Too small: expected array to have >=1 items'],
  [
    'an unknown dry-run check',
    progressive('      - native: 100\n', '    analysis: { dryRun: [maxLatency] }\n'),
    'routes[0].analysis.dryRun[0]: is not one of maxErrorRate, maxErrorRateIncrease, maxLatencyRatio, maxDiffRate, maxDiffRateIncrease, maxWriteDiffRate',
  ],
  ['a bad sticky key', 'stickyBy: cookie\n', 'stickyBy: must be subject, token or header:<name>'],
  ['a switch that is text', 'killSwitch: "yes"\n', 'killSwitch: Invalid input: expected boolean, received string'],
  ['a misspelt key', 'killswitch: true\n', 'killswitch: not a key of the rollout file'],
  ['a rate out of range', 'guard:\n  maxErrorRate: 2\n', 'guard.maxErrorRate: Too big: expected number to be <=1'],
  ['approvals out of range', 'approvals: { nativeAbove: 150 }\n', 'approvals.nativeAbove: must be at most 100'],
  ['not YAML', 'routes: [\n', /^not YAML or JSON: [A-Z_]+ at line 2, column 1$/],
  ['a list, not a map', '- 1\n- 2\n', /^\(top level\): /],
  // another file saved there: its lines (a password hash here) are content, never quoted; only counted
  ['a file of another kind', SHADOW, '(top level): 2 unknown keys'],
];

/** Whatever can be saved at the rollout file's path that is no rollout file: each refused by what it is, and the process unharmed. */
const HOSTILE: [string, (file: string) => void, RegExp][] = [
  ['a symlink to /dev/zero', (file) => symlinkSync('/dev/zero', file), /^is not a regular file \(a character device\)$/],
  ['a FIFO', (file) => execFileSync('mkfifo', [file]), /^is not a regular file \(a FIFO\)$/],
  ['a directory', (file) => mkdirSync(file), /^is not a regular file \(a directory\)$/],
  [
    'a 10 MB file',
    (file) => writeFileSync(file, `# ${'x'.repeat(10 * 1024 * 1024)}\n`),
    /^is 10485763 bytes, more than the 1048576 ROLLOUT_FILE_MAX_BYTES allows$/,
  ],
  [
    'a symlink to an unreadable file',
    // root reads any file whatever its mode: the proxy's own memory file (an unmapped address) fails to read even for root
    (file) => {
      if (process.getuid?.() === 0) return symlinkSync('/proc/self/mem', file);
      const unreadable = `${file}.unreadable`;
      writeFileSync(unreadable, GOOD);
      chmodSync(unreadable, 0);
      symlinkSync(unreadable, file);
    },
    /^cannot be (opened \(EACCES\)|read \(EIO\))$/,
  ],
];

/** Removes what a case left at `file` (and beside it). */
function clear(file: string): void {
  rmSync(file, { recursive: true, force: true });
  rmSync(`${file}.unreadable`, { force: true });
}

function serve(env: Record<string, string>): ChildProcessWithoutNullStreams & { out(): string } {
  const child = spawn(process.execPath, ['--import', TSX, join(REPO, 'src/cli.ts'), 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), PORT: '0', LOG_LEVEL: 'warn', ...env },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return Object.assign(child, { out: () => out });
}

const exited = (child: ChildProcessWithoutNullStreams) => new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

describe('a bad rollout file never stops the proxy', () => {
  let h: EmulatorHarness;
  const dir = mkdtempSync(join(tmpdir(), 'v2proxy-bad-rollout-'));
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('each kind of bad value saved into the watched file of a running process is refused by its path; the last good one stays', async () => {
    const file = join(dir, 'watched.yaml');
    writeFileSync(file, GOOD);
    const proxy = serve({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, ADMIN_TOKEN: ADMIN });
    const gone = exited(proxy);
    try {
      await until(
        async () => proxy.out(),
        (o) => /listening on http:\/\/127\.0\.0\.1:\d+/.test(o),
        'the proxy started',
        30_000,
      );
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(proxy.out())?.[1] as string;
      const status = async () => (await call(url, 'GET', '/admin/rollout', { token: ADMIN })).body;
      const good = await status();
      expect(good.lastError).toBeNull();
      const cases: [string, (file: string) => void, string | RegExp][] = [
        ...BAD.map(([kind, text, named]): [string, (file: string) => void, string | RegExp] => [kind, (f) => writeFileSync(f, text), named]),
        ...HOSTILE,
        ['a file that is gone', () => undefined, 'cannot be opened (ENOENT)'],
      ];
      for (const [kind, make, named] of cases) {
        clear(file);
        make(file);
        const seen = await until(status, (s) => s.lastError !== null, kind);
        expect(proxy.exitCode, kind).toBeNull();
        expect((seen.lastError as string).startsWith(`${file}: `), kind).toBe(true);
        const said = (seen.lastError as string).slice(`${file}: `.length);
        if (typeof named === 'string') expect(said, kind).toBe(named);
        else expect(said, kind).toMatch(named);
        expect(seen.configuration.digest, kind).toBe(good.configuration.digest);
        // still serving on the last good one
        const served = await call(url, 'GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice });
        expect([served.status, served.headers.get('x-v2proxy-backend')], kind).toEqual([200, 'native']);
        clear(file);
        writeFileSync(file, GOOD);
        await until(status, (s) => s.lastError === null, `${kind}: a good file again`);
      }
      expect(proxy.out()).not.toMatch(/TypeError|\n\s+at /);
      // the logs name each problem (written in batches: awaited), and nothing of what was saved
      await until(
        async () => proxy.out(),
        (o) => /cannot be opened \(ENOENT\)/.test(o),
        'the last refusal logged',
      );
      expect(proxy.out()).toMatch(/is not a regular file \(a FIFO\)/);
      expect(proxy.out()).not.toContain('a-password-hash-never-shown');
    } finally {
      proxy.kill('SIGTERM');
      await gone;
    }
  }, 60_000);

  it('at start, each is refused with the same words (RolloutFileError); the CLI says it in one line, without a stack trace', async () => {
    const quiet = { info: () => {}, warn: () => {}, error: () => {}, changed: () => {}, rollback: () => {}, reload: () => {} };
    const known = new Map(loadMappings().map((r) => [r.mapping.resource, r.mapping.v2.operations]));
    // one reader for all of them, as a process has
    const reader = new RolloutFileReader(DEFAULT_FILE_BOUNDS);
    const cases: [string, (file: string) => void, string | RegExp][] = [
      ...BAD.map(([kind, text, named]): [string, (file: string) => void, string | RegExp] => [kind, (f) => writeFileSync(f, text), named]),
      ...HOSTILE,
    ];
    for (const [i, [kind, make, named]] of cases.entries()) {
      const file = join(dir, `start-${i}.yaml`);
      make(file);
      const started = startRollout({ file, known, reader, nativeBackend: undefined, overrideSecret: undefined, now: Date.now, events: quiet });
      const err = await started.then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(err?.name, kind).toBe('RolloutFileError');
      const said = (err?.message ?? '').slice(`${file}: `.length);
      if (typeof named === 'string') expect(said, kind).toBe(named);
      else expect(said, kind).toMatch(named);
    }
    await reader.close();
    // some of them through the command itself (each a process of its own: a few suffice), the
    // hostile files among them
    const runs = [0, 4, 17, BAD.length, BAD.length + 1, BAD.length + 3].map(async (i) => {
      const file = join(dir, `start-${i}.yaml`);
      const child = serve({ V1_BASE_URL: h.url, ROLLOUT_FILE: file, ADMIN_TOKEN: ADMIN });
      return { i, file, code: await exited(child), out: child.out() };
    });
    for (const { i, file, code, out } of await Promise.all(runs)) {
      const [kind, , named] = cases[i] as (typeof cases)[number];
      expect(code, `${kind}: ${out}`).toBe(1);
      const lines = out.trim().split('\n');
      expect(lines, kind).toHaveLength(1);
      const prefix = `v2proxy: ROLLOUT_FILE: ${file}: `;
      expect(lines[0]?.startsWith(prefix), `${kind}: ${out}`).toBe(true);
      if (typeof named === 'string') expect((lines[0] as string).slice(prefix.length)).toBe(named);
      else expect((lines[0] as string).slice(prefix.length)).toMatch(named);
    }
  }, 60_000);
});
