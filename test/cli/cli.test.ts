import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { A, DEV_TOKEN, twoTenantSeed } from '../support/fixtures.js';
import { call, writeSeedFile } from '../support/emulator-harness.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
// tsx as a URL: the processes run in folders of their own, where a bare 'tsx' does not resolve
const TSX = import.meta.resolve('tsx');
const children: ChildProcessWithoutNullStreams[] = [];

function run(args: string[], env: Record<string, string> = {}, cwd = tmpdir()): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], {
    // (no drain delay: these processes are stopped by the tests, not by a load balancer)
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', PORT: '0', SHUTDOWN_DELAY_MS: '0', ...env },
    cwd,
  });
  children.push(child);
  return child;
}

function finish(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves with the stdout lines once a line matching `until` has been printed. */
function banner(child: ChildProcessWithoutNullStreams, until: RegExp): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) resolve(out.split('\n'));
    });
    child.on('close', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

const EXAMPLE_ROLLOUT = fileURLToPath(new URL('../../examples/rollout.yaml', import.meta.url));

describe('cli', () => {
  const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

  it('--help lists the commands; --version prints the version; no command or an unknown one is a usage error', async () => {
    const help = await finish(run(['--help']));
    expect(help.code).toBe(0);
    for (const command of ['demo', 'serve', 'emulator', 'diff']) expect(help.stdout).toMatch(new RegExp(`^  v2proxy ${command} `, 'm'));
    expect(await finish(run(['--version']))).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    const none = await finish(run([]));
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toMatch(/^v2proxy: a command is needed\n\nv2proxy: serves/);
    const unknown = await finish(run(['frobnicate']));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
  });

  it('--help on every command prints its help and exits 0 without serving; an unknown flag is an error', async () => {
    const [serve, emulator, demo, diff] = await Promise.all([
      finish(run(['serve', '--help'])),
      finish(run(['emulator', '-h'])),
      finish(run(['demo', '--help'])),
      finish(run(['diff', '--help'])),
    ]);
    for (const r of [serve, emulator, demo, diff]) {
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: v2proxy /);
      expect(r.stdout).not.toMatch(/listening on/);
    }
    for (const name of [
      'CONFIG',
      'HOST',
      'PORT',
      'V1_BASE_URL',
      'V2_BASE_URL',
      'V2_TIMEOUT_MS',
      'V1_ISSUER_TIMEOUT_MS',
      'ROLLOUT_FILE',
      'ADMIN_TOKEN',
      'SHUTDOWN_DELAY_MS',
    ]) {
      expect(serve.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
    expect(serve.stdout).not.toMatch(/SIM_PORT|DEV_TOKEN/);
    for (const name of ['CONFIG', 'SIM_HOST', 'SIM_PORT', 'SIM_V2', 'SIM_V2_PORT', 'SIM_SEED', 'DEV_TOKEN', 'SIM_TRUSTED_ISSUERS']) {
      expect(emulator.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
    expect(demo.stdout).toMatch(/--env-file/);
    const flag = await finish(run(['serve', '--port', '9000'], { V1_BASE_URL: 'http://127.0.0.1:9' }));
    expect(flag).toMatchObject({ code: 2, stdout: '' });
    expect(flag.stderr).toMatch(/^v2proxy: Unknown option '--port'/);
    expect((await finish(run(['emulator', 'extra']))).code).toBe(2);
  });

  it('`serve` needs V1_BASE_URL and says so in one line', async () => {
    const { code, stdout, stderr } = await finish(run(['serve']));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('v2proxy: V1_BASE_URL is not set: `v2proxy serve` needs the v1 backend (`v2proxy demo` runs the proxy on its embedded emulator)\n');
  });

  it('an invalid setting stops start-up with one line naming the variable and the rule', async () => {
    const { code, stdout, stderr } = await finish(run(['serve'], { PORT: 'http' }));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe('v2proxy: invalid configuration: PORT: must be a port number (0-65535)\n');
  });

  it('several invalid settings stop start-up with one line naming them all', async () => {
    const { code, stdout, stderr } = await finish(run(['serve'], { PORT: 'http', MAX_CONNECTIONS: '0', LOG_LEVEL: 'loud' }));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'v2proxy: invalid configuration: PORT: must be a port number (0-65535); MAX_CONNECTIONS: must be at least 1; LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent\n',
    );
  });

  it('a missing or invalid ROLLOUT_FILE stops start-up with the reason, before the proxy listens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'v2proxy-cli-rollout-'));
    const missing = join(dir, 'missing.yaml');
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'routes:\n  - resource: grups\n    native: 150\n  - resource: advisories\n    operations: [list, create]\n');
    const v1 = { V1_BASE_URL: 'http://127.0.0.1:9' };
    const [none, invalid] = await Promise.all([finish(run(['serve'], { ...v1, ROLLOUT_FILE: missing })), finish(run(['serve'], { ...v1, ROLLOUT_FILE: bad }))]);
    expect(none).toMatchObject({ code: 1, stdout: '', stderr: `v2proxy: ROLLOUT_FILE: ${missing}: cannot be opened (ENOENT)\n` });
    expect(invalid).toMatchObject({ code: 1, stdout: '' });
    expect(invalid.stderr).toBe(`v2proxy: ROLLOUT_FILE: ${bad}: routes[0].native: must be at most 100\n`);
    writeFileSync(bad, 'routes:\n  - resource: grups\n  - resource: advisories\n    operations: [list, create]\n');
    const unknown = await finish(run(['serve'], { ...v1, ROLLOUT_FILE: bad }));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^v2proxy: ROLLOUT_FILE: .*routes\[0\]\.resource: not a known resource; known: accountAssociations, advisories, .*; routes\[1\]\.operations: advisories has no create; it has list, get\n$/,
    );
  });

  it('a malformed seed file stops start-up with one line naming the record', async () => {
    const seed = writeSeedFile({ groups: [{ id: A, name: 'NOT valid' }] });
    const { code, stderr } = await finish(run(['emulator'], { SIM_SEED: seed }));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(new RegExp(`^v2proxy: SIM_SEED: seed file .*: groups\\[0\\] \\(${A}\\): name must match`));
  });

  it('`demo` starts the emulator and the proxy on it, prints the banner and writes its values to .demo.env for the examples', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'v2proxy-demo-'));
    const child = run(['demo'], { DEV_TOKEN }, cwd);
    const lines = await banner(child, /^try: .*$/m);
    const text = lines.join('\n');
    const proxyUrl = /^v2proxy listening on (http:\/\/127\.0\.0\.1:\d+)/m.exec(text)?.[1] as string;
    const emulatorUrl = /^v1 emulator listening on (http:\/\/127\.0\.0\.1:\d+)/m.exec(text)?.[1];
    const org = /^demo organization uid: ([0-9a-f]{40})$/m.exec(text)?.[1];
    expect(proxyUrl).toBeDefined();
    expect(emulatorUrl).toBeDefined();
    expect(org).toBeDefined();
    // a DEV_TOKEN the operator set is never printed, nor written
    expect(text).not.toContain(DEV_TOKEN);
    expect(lines).toContain('dev token (superuser on the emulator): the DEV_TOKEN you set');
    expect(lines).toContain('these values are in .demo.env: load them with  . ./.demo.env');
    expect(text).toContain(`curl -s -H "Authorization: Bearer $DEV_TOKEN" "${proxyUrl}/iam/v2beta1/groups/${org}"`);
    const env = readFileSync(join(cwd, '.demo.env'), 'utf8');
    expect(statSync(join(cwd, '.demo.env')).mode & 0o777).toBe(0o600);
    expect(env).not.toContain(DEV_TOKEN);
    expect(env).toContain(`PROXY='${proxyUrl}'\n`);
    expect(env).toContain(`EMULATOR='${emulatorUrl}'\n`);
    expect(env).toContain(`ORG='${org}'\n`);
    expect(env).toContain('DEV="$DEV_TOKEN"\n');
    expect(env).toMatch(/^ADMIN='adm-[\w-]+'$/m);
    // the override secret the demo made: written for the tour, never printed
    expect(env).toMatch(/^OVERRIDE='ovr-[\w-]+'$/m);
    expect(text).not.toContain(/^OVERRIDE='(.+)'$/m.exec(env)?.[1] as string);
    expect((await call(proxyUrl, 'GET', '/healthz')).status).toBe(200);
    expect((await call(proxyUrl, 'GET', '/readyz')).status).toBe(200);
    const groups = await call(proxyUrl, 'GET', `/iam/v1/groups?id=${org}`, { token: DEV_TOKEN });
    expect(groups.body.items[0]).toMatchObject({ id: org, name: 'demo-org' });
    const v2 = await call(proxyUrl, 'GET', `/iam/v2beta1/groups/${org}`, { token: DEV_TOKEN });
    expect(v2.body).toMatchObject({ uid: org, name: 'demo-org' });
    const exited = finish(child);
    child.kill('SIGTERM');
    expect((await exited).code).toBe(0);
  });

  it('with the example rollout file the demo routes by it; an ADMIN_TOKEN given is never printed, a generated one is', async () => {
    const ADMIN_TOKEN = 'operator-admin-token-0123';
    const child = run(['demo'], { DEV_TOKEN, ROLLOUT_FILE: EXAMPLE_ROLLOUT, ADMIN_TOKEN });
    const lines = await banner(child, /^try: .*$/m);
    const text = lines.join('\n');
    expect(text).not.toContain(ADMIN_TOKEN);
    expect(text).toContain(`rollout file: ${EXAMPLE_ROLLOUT}`);
    const proxyUrl =
      /^v2proxy listening on (http:\/\/127\.0\.0\.1:\d+) \(v1 backend: http:\/\/127\.0\.0\.1:\d+; native v2 backend: (http:\/\/127\.0\.0\.1:\d+)\)$/m.exec(
        text,
      );
    expect(proxyUrl).not.toBeNull();
    expect(text).toContain(`native v2 emulator listening on ${proxyUrl?.[2]}`);
    const url = proxyUrl?.[1] ?? '';
    // the example sends every caller's role reads to native
    const roles = await call(url, 'GET', '/iam/v2beta1/roles?page_size=1', { token: DEV_TOKEN });
    expect(roles.headers.get('x-v2proxy-backend')).toBe('native');
    const status = await call(url, 'GET', '/admin/rollout', { token: ADMIN_TOKEN });
    expect(status.body).toMatchObject({
      file: EXAMPLE_ROLLOUT,
      lastError: null,
      routes: [
        { resource: 'groups', native: 30 },
        { resource: 'groups', operations: ['create', 'update', 'delete'], native: 50, verifyWrites: 100 },
        { resource: 'roles', native: 100 },
        { resource: 'tags', native: 0, progress: { steps: 3 } },
      ],
    });
    child.kill('SIGTERM');

    const generated = run(['demo'], {});
    const shown = (await banner(generated, /^try: .*$/m)).join('\n');
    // a generated dev token is shown, since the banner is the only way to learn it
    expect(shown).toMatch(/^dev token \(superuser on the emulator\): dev-[\w-]{32}$/m);
    const token = /^admin token \(\/admin, generated\): (adm-[\w-]+)$/m.exec(shown)?.[1];
    expect(token).toBeDefined();
    const proxy = /^v2proxy listening on (\S+)/m.exec(shown)?.[1] ?? '';
    expect((await call(proxy, 'GET', '/admin/rollout', { token })).status).toBe(200);
  });

  it('`emulator` runs the emulator alone on SIM_PORT with the seed file', async () => {
    const child = run(['emulator'], { SIM_SEED: writeSeedFile(twoTenantSeed()), DEV_TOKEN });
    const lines = await banner(child, /^try: .*$/m);
    const url = /^v1 emulator listening on (http:\/\/127\.0\.0\.1:\d+)/m.exec(lines.join('\n'))?.[1] ?? '';
    expect(lines.join('\n')).not.toMatch(/demo organization/);
    expect(lines.join('\n')).not.toContain(DEV_TOKEN);
    const res = await call(url, 'GET', `/iam/v1/groups?id=${A}`, { token: DEV_TOKEN });
    expect(res.body.items[0]).toMatchObject({ name: 'tenant-a' });
  });
});
