import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningDemo } from '../../src/commands/demo.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import { call } from '../support/emulator-harness.js';
import { DEV_TOKEN } from '../support/fixtures.js';
import { startDemo } from '../support/proxy-harness.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

function diffCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'diff', ...args], { env: { ...process.env, LOG_LEVEL: 'silent' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('record, then replay through `v2proxy diff`', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'v2proxy-record-'));
  const recording = join(dir, 'reads.jsonl');
  // the replays below read through the same proxy, which records them too: they replay a copy
  const frozen = join(dir, 'frozen.jsonl');
  let proxy: RunningDemo;
  let emu: RunningEmulator;

  beforeAll(async () => {
    proxy = await startDemo({ RECORD_FILE: recording, DEV_TOKEN });
    emu = proxy.emulator;
    const groups = await call(proxy.url, 'GET', '/iam/v2beta1/groups?page_size=2', { token: DEV_TOKEN });
    await call(proxy.url, 'GET', `/iam/v2beta1/groups?page_size=2&page_token=${groups.body.nextPageToken}`, { token: DEV_TOKEN });
    for (const g of groups.body.groups) await call(proxy.url, 'GET', `/iam/v2beta1/groups/${g.uid}`, { token: DEV_TOKEN });
    const tags = await call(proxy.url, 'GET', '/registry/v2beta1/tags', { token: DEV_TOKEN });
    for (const t of tags.body.tags.slice(0, 3)) await call(proxy.url, 'GET', `/registry/v2beta1/tags/${t.uid}`, { token: DEV_TOKEN });
    // writes are not recorded
    await call(proxy.url, 'POST', `/iam/v2beta1/groups/${emu.demoOrg}`, { token: DEV_TOKEN, body: { name: 'not-recorded' } });
  });
  afterAll(() => proxy.close());

  it('records each v2 read served as one JSON line, never a token, a header or a body', async () => {
    const deadline = Date.now() + 5000;
    let lines: string[] = [];
    while (Date.now() < deadline) {
      lines = readFileSync(recording, 'utf8').trim().split('\n');
      if (lines.length >= 8) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(lines).toHaveLength(8);
    for (const line of lines) {
      const entry = JSON.parse(line);
      expect(Object.keys(entry)).toEqual(['time', 'method', 'url', 'status', 'requestId', 'protocol']);
      expect(entry).toMatchObject({ method: 'GET', status: 200, time: expect.stringMatching(/Z$/) });
    }
    expect(readFileSync(recording, 'utf8')).not.toContain(DEV_TOKEN);
    expect(readFileSync(recording, 'utf8')).not.toContain('not-recorded');
    writeFileSync(frozen, readFileSync(recording));
  });

  it('exits 0 when the differences stay within --fail-over, writing the report and the JSON', async () => {
    const tagsOnly = join(dir, 'tags.jsonl');
    writeFileSync(
      tagsOnly,
      readFileSync(frozen, 'utf8')
        .split('\n')
        .filter((l) => l.includes('/registry/'))
        .join('\n'),
    );
    const html = join(dir, 'tags.html');
    const json = join(dir, 'tags.json');
    const run = await diffCli([
      '--requests',
      tagsOnly,
      '--a',
      proxy.url,
      '--b',
      emu.v2Url as string,
      '--token',
      DEV_TOKEN,
      '--report',
      html,
      '--json',
      json,
      '--noise',
      '100',
    ]);
    expect(run.stderr).toMatch(/^replaying 4 reads against A http:\/\/127\.0\.0\.1:\d+ and B http:\/\/127\.0\.0\.1:\d+\n/);
    expect(run.stderr).toMatch(/4\/4\n$/);
    expect(run.stdout).toMatch(/^resource\s+operation\s+compared\s+matched\s+differed\s+errors\s+skipped\s+failing fields\n/);
    expect(run.stdout).toMatch(/^tags\s+get\s+3\s+3\s+0\s+0\s+0$/m);
    expect(run.stdout).toContain('0 of 4 compared reads (0.00 %) show a reported difference; fail-over 0 %');
    expect(run.code).toBe(0);
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>[\s\S]*data-route="tags get"/);
    expect(
      JSON.parse(readFileSync(json, 'utf8'))
        .routes.map((r: { resource: string; operation: string }) => `${r.resource} ${r.operation}`)
        .sort(),
    ).toEqual(['tags get', 'tags list']);
  });

  it('exits 1 when a field fails, 3 while a field is inconclusive (with how many more reads would decide it), 0 with none differing', async () => {
    await call(emu.url, 'POST', '/__emulator/faults', {
      token: DEV_TOKEN,
      body: { rules: [{ prefix: '/iam/v2beta1/groups', set: { description: 'planted' } }] },
    });
    try {
      const json = join(dir, 'all.json');
      // a handful of reads: under the default minimum (200) every differing field is inconclusive
      const replay = (...more: string[]) => diffCli(['--requests', frozen, '--a', proxy.url, '--b', emu.v2Url as string, '--token', DEV_TOKEN, ...more]);
      const few = await replay();
      expect(few.code).toBe(3);
      expect(few.stdout).toMatch(
        /^ {2}inconclusive {2}groups get {2}description {2}2 of the 200 compared reads needed \(the minimum per side\); about 198 more reads would decide it$/m,
      );
      expect(few.stdout).toMatch(/^inconclusive: \d+ fields need more reads to decide$/m);
      const strict = await replay('--json', json, '--min-reads', '1');
      expect(strict.code).toBe(1);
      expect(strict.stdout).toMatch(/^ {2}fail {10}groups get {2}description {2}compared reads: 2 of 2 \(100 %\): 100 % in \[\d+(\.\d+)? %, 100 %\]$/m);
      // the continued page is skipped; groups differ (planted description, synthesized times), tags match
      expect(strict.stdout).toMatch(/^groups\s+list\s+1\s+0\s+1\s+0\s+1\s+.*groups\[\]\.description/m);
      expect(strict.stdout).toContain('3 of 7 compared reads (42.86 %) show a reported difference; fail-over 0 %');
      const report = JSON.parse(readFileSync(json, 'utf8'));
      const get = report.routes.find((r: { resource: string; operation: string }) => r.resource === 'groups' && r.operation === 'get');
      expect(get.fields.find((f: { path: string }) => f.path === 'description')).toMatchObject({
        kind: 'value',
        differences: 2,
        verdict: { verdict: 'fail', tolerance: 0, minimum: 1, level: 0.98, method: 'Wilson score interval' },
      });
      // a tolerance of 50 %: two of two reads cannot tell a share above it from one below
      const lenient = await replay('--fail-over', '50', '--min-reads', '1');
      expect(lenient.code).toBe(3);
      expect(lenient.stdout).toMatch(/^ {2}inconclusive {2}groups get {2}description {2}compared reads: 2 of 2 .*; about \d+ more reads would decide it$/m);
      // the fields that differ by design (or by the planted fault) left out: nothing is reported
      const ignoring = ['description', 'createTime', 'updateTime'].flatMap((f) => ['--ignore', f, '--ignore', `groups[].${f}`]);
      const ignored = await replay(...ignoring);
      expect(ignored.stdout).toContain('0 of 7 compared reads (0.00 %) show a reported difference');
      expect(ignored.code).toBe(0);
    } finally {
      await call(emu.url, 'DELETE', '/__emulator/faults', { token: DEV_TOKEN });
    }
  });

  it('exits 3 (inconclusive) when nothing could be compared or too many reads failed, and says why', async () => {
    const native = emu.v2Url as string;
    const closed = 'http://127.0.0.1:9';
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const garbage = join(dir, 'garbage.jsonl');
    writeFileSync(garbage, 'not json\n{"method":"POST","url":"/iam/v2beta1/groups"}\n');
    const runs = await Promise.all([
      diffCli(['--requests', frozen, '--a', proxy.url, '--b', closed, '--token', DEV_TOKEN]),
      diffCli(['--requests', frozen, '--a', proxy.url, '--b', native, '--token', 'not-a-token-anyone-knows']),
      diffCli(['--requests', empty, '--a', proxy.url, '--b', native, '--token', DEV_TOKEN]),
      diffCli(['--requests', garbage, '--a', proxy.url, '--b', native, '--token', DEV_TOKEN]),
    ]);
    expect(runs.map((r) => r.code)).toEqual([3, 3, 3, 3]);
    const [down, unauthorized, none, invalid] = runs as [(typeof runs)[0], (typeof runs)[0], (typeof runs)[0], (typeof runs)[0]];
    expect(down.stdout).toMatch(/^inconclusive: no read could be compared; 7 of 7 reads failed \(100\.00 %; A: none; B: no answer ×7\)$/m);
    expect(unauthorized.stdout).toMatch(/^inconclusive: no read could be compared; 7 of 7 reads failed \(100\.00 %; A: 401 ×7; B: 401 ×7\)$/m);
    expect(none.stderr).toBe(`v2proxy diff: inconclusive: ${empty} has no recorded v2 read\n`);
    expect(invalid.stderr).toBe(`v2proxy diff: inconclusive: ${garbage} has no recorded v2 read (2 lines ignored)\n`);

    // some reads fail on B (its tags answer 503): inconclusive by default, a verdict once --max-errors allows them
    await call(emu.url, 'POST', '/__emulator/faults', { token: DEV_TOKEN, body: { rules: [{ prefix: '/registry/v2beta1/tags', status: 503 }] } });
    try {
      const strict = await diffCli(['--requests', frozen, '--a', proxy.url, '--b', native, '--token', DEV_TOKEN, '--fail-over', '100']);
      expect(strict.code).toBe(3);
      expect(strict.stdout).toMatch(/^inconclusive: 4 of 7 reads failed \(57\.14 %; A: none; B: 503 ×4\), above --max-errors 0 %$/m);
      // (the times v1 does not keep left out: nothing else differs)
      const times = ['createTime', 'updateTime'].flatMap((f) => ['--ignore', f, '--ignore', `groups[].${f}`]);
      const allowed = await diffCli(['--requests', frozen, '--a', proxy.url, '--b', native, '--token', DEV_TOKEN, '--max-errors', '60', ...times]);
      expect(allowed.code).toBe(0);
      expect(allowed.stdout).not.toMatch(/inconclusive/);
    } finally {
      await call(emu.url, 'DELETE', '/__emulator/faults', { token: DEV_TOKEN });
    }
  });

  it('sends each --header to both sides with every read, beside its own authorization', async () => {
    // two plain servers that note what each read carried
    const heard: Record<string, string | string[] | undefined>[] = [];
    const servers = [0, 1].map(() =>
      createServer((req, res) => {
        heard.push(req.headers);
        res.setHeader('content-type', 'application/json');
        res.end('{"uid":"x"}');
      }),
    );
    try {
      const urls = await Promise.all(
        servers.map(
          (srv) => new Promise<string>((resolve) => srv.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(srv.address() as AddressInfo).port}`))),
        ),
      );
      const one = join(dir, 'one.jsonl');
      writeFileSync(one, `${JSON.stringify({ method: 'GET', url: '/iam/v2beta1/groups/abc', status: 200, requestId: 'r1' })}\n`);
      const run = await diffCli([
        '--requests',
        one,
        '--a',
        urls[0] as string,
        '--b',
        urls[1] as string,
        '--token',
        't',
        '--header',
        'X-V2proxy-Backend: translate',
        '--header',
        'x-tenant:  blue ',
      ]);
      expect(run.stdout).toContain('0 of 1 compared reads');
      expect(run.code).toBe(0);
      expect(heard).toHaveLength(2);
      for (const h of heard) expect(h).toMatchObject({ 'x-v2proxy-backend': 'translate', 'x-tenant': 'blue', authorization: 'Bearer t', 'x-request-id': 'r1' });
    } finally {
      for (const srv of servers) srv.close();
    }
  });

  it('exits 2 on bad usage', async () => {
    const cases = [
      [],
      ['--requests', recording, '--a', proxy.url, '--b', 'not-a-url', '--token', 't'],
      ['--requests', recording, '--a', proxy.url, '--b', proxy.url],
      ['--requests', recording, '--a', proxy.url, '--b', proxy.url, '--token', 't', '--fail-over', '120'],
      ['--requests', recording, '--a', proxy.url, '--b', proxy.url, '--token', 't', '--max-errors', 'some'],
      ['--requests', join(dir, 'missing.jsonl'), '--a', proxy.url, '--b', proxy.url, '--token', 't'],
      ['--colour', 'red'],
      ['--requests', recording, '--a', proxy.url, '--b', proxy.url, '--token', 't', '--header', 'no-colon'],
      ['--requests', recording, '--a', proxy.url, '--b', proxy.url, '--token', 't', '--header', 'authorization: Bearer other'],
      ['--requests', recording, '--a', proxy.url, '--b', proxy.url, '--token', 't', '--header', 'x-a: b\r\nx-b: c'],
    ];
    const runs = await Promise.all(cases.map((args) => diffCli(args)));
    runs.forEach((run, i) => {
      expect(run.code, cases[i]?.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^v2proxy diff: /);
    });
  });
});
