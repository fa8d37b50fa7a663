// README's five-minute tour, run as written: its `sh` blocks, in order, in one bash, against a demo
// started as the tour says. An edit to README or to the product that breaks a step fails here.
import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** The fenced blocks of a markdown text tagged `lang`, in order. */
function fencedBlocks(markdown: string, lang: string): string[] {
  const blocks: string[] = [];
  const fence = /^```([\w-]*)\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) if (m[1] === lang) blocks.push(m[2] ?? '');
  return blocks;
}

function finish(child: ChildProcess): Promise<{ code: number | null; out: string }> {
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

describe("README's tour", () => {
  let dir: string;
  let demo: ChildProcessWithoutNullStreams;
  // a clean environment: no token of the developer's leaks in, so .demo.env carries the demo's own
  const env = { PATH: `${join(REPO, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? tmpdir() };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'v2proxy-tour-'));
    // the tour runs in a folder of its own; npx finds v2proxy and buf through the checkout's modules
    symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
    symlinkSync(join(REPO, 'examples'), join(dir, 'examples'));
    // as the tour starts it (ROLLOUT_FILE=examples/rollout.yaml RECORD_FILE=reads.jsonl npm start), on a free port
    demo = spawn(process.execPath, ['--import', TSX, join(REPO, 'src/cli.ts'), 'demo'], {
      cwd: dir,
      env: { ...env, PORT: '0', LOG_LEVEL: 'warn', SHUTDOWN_DELAY_MS: '0', ROLLOUT_FILE: 'examples/rollout.yaml', RECORD_FILE: 'reads.jsonl' },
    });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      demo.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('.demo.env')) resolve();
      });
      demo.on('close', (code) => reject(new Error(`demo exited ${code}: ${out}`)));
    });
  }, 60_000);

  afterAll(async () => {
    if (demo.exitCode !== null) return;
    const closed = new Promise((resolve) => demo.on('close', resolve));
    demo.kill('SIGTERM');
    await closed;
  });

  it('has steps for every job, and each of them runs as written', async () => {
    const steps = fencedBlocks(readFileSync(join(REPO, 'README.md'), 'utf8'), 'sh');
    const script = steps.join('\n');
    // the tour covers the three jobs and the access-setup flow for both front doors
    for (const must of [
      '. ./.demo.env',
      'roleBindings',
      'buf curl',
      'CreateRoleBinding',
      'x-v2proxy-backend: native',
      '/admin/rollout/kill',
      'diff.json',
      'v2proxy diff',
    ]) {
      expect(script).toContain(must);
    }
    // (stdin not a socket: Debian's bash would read bash.bashrc)
    const run = await finish(spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] }));
    expect(run, run.out).toMatchObject({ code: 0 });
    // the replay read its copy of the group reads, not what it recorded itself, and compared each
    const recorded = readFileSync(join(dir, 'replay.jsonl'), 'utf8').trim().split('\n').length;
    expect(recorded).toBeGreaterThanOrEqual(3);
    expect(readFileSync(join(dir, 'reads.jsonl'), 'utf8').trim().split('\n').length).toBeGreaterThan(2 * recorded);
    expect(run.out).toContain(`replaying ${recorded} reads`);
    expect(run.out).toContain(`0 of ${recorded} compared reads (0.00 %) show a reported difference`);
    expect(readFileSync(join(dir, 'diff.html'), 'utf8')).toMatch(/^<!doctype html>/);
  }, 120_000);
});
