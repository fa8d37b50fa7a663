import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/commands/serve.js';
import { call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, TOKENS } from '../support/fixtures.js';
import { LogCapture, startProxy } from '../support/proxy-harness.js';
import { freePort } from '../support/redis-server.js';
import { until } from '../support/until.js';

describe('a wrong backend is said at once', () => {
  const running: (RunningProxy | EmulatorHarness)[] = [];
  afterAll(async () => {
    for (const r of running) await r.close();
  });
  /** An emulator (closed after the suite) and a rollout file holding `yaml`. */
  const withRollout = async (yaml: string) => {
    const h = await startHarness();
    running.push(h);
    const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-start-')), 'rollout.yaml');
    writeFileSync(file, yaml);
    return { h, file };
  };

  it('a v1 backend that does not answer: a warning naming its URL without credentials, and not ready until it answers', async () => {
    const port = await freePort(); // nothing listens there
    const logs = new LogCapture();
    const proxy = await startProxy({ V1_BASE_URL: `http://ops:s3cret-pass@127.0.0.1:${port}/base?key=s3cret-key`, LOG_LEVEL: 'warn' }, logs);
    running.push(proxy);
    await until(
      async () => logs.text,
      (t) => t.includes('the v1 backend at'),
      'the warning',
    );
    const line = logs.lines.map((l) => JSON.parse(l) as { level: number; msg: string }).find((l) => l.msg.startsWith('the v1 backend at'));
    expect(line).toMatchObject({
      level: 40,
      msg: `the v1 backend at http://127.0.0.1:${port}/base does not answer (ECONNREFUSED): /readyz answers 503 until it does`,
    });
    expect(logs.text).not.toMatch(/s3cret/);
    for (let i = 0; i < 3; i += 1) expect((await call(proxy.url, 'GET', '/readyz')).status).toBe(503);
  });

  it('a native backend that does not answer is named too; one that answers is not', async () => {
    const h = await startHarness();
    running.push(h);
    const port = await freePort();
    const logs = new LogCapture();
    const proxy = await startProxy({ V1_BASE_URL: h.url, V2_BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' }, logs);
    running.push(proxy);
    await until(
      async () => logs.text,
      (t) => t.includes('the native v2 backend at'),
      'the warning',
    );
    expect(logs.text).toContain(`the native v2 backend at http://127.0.0.1:${port} does not answer (ECONNREFUSED)`);
    expect(logs.text).not.toContain('the v1 backend at');
    expect((await call(proxy.url, 'GET', '/readyz')).status).toBe(200);
  });

  it('a rollout that gives the native side a share without V2_BASE_URL says every request is translated', async () => {
    const { h, file } = await withRollout('routes:\n  - resource: groups\n    native: 30\n');
    const logs = new LogCapture();
    running.push(await startProxy({ V1_BASE_URL: h.url, ROLLOUT_FILE: file, LOG_LEVEL: 'warn' }, logs));
    expect(logs.text).toContain('rollout: routes give the native side a share but V2_BASE_URL is not set: every request is translated');
    const quiet = new LogCapture();
    writeFileSync(file, 'routes:\n  - resource: groups\n    shadow: 0\n');
    running.push(await startProxy({ V1_BASE_URL: h.url, ROLLOUT_FILE: file, LOG_LEVEL: 'warn' }, quiet));
    expect(quiet.text).not.toContain('V2_BASE_URL is not set');
  });

  it('a v1 setting that also governs the native backend is said, naming its V2_* setting; the native backend keeps its own largest answer', async () => {
    const { h, file } = await withRollout('routes:\n  - resource: groups\n    operations: [get]\n    native: 100\n');
    const logs = new LogCapture();
    const proxy = await startProxy(
      { V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, V1_RETRIES: '3', V2_MAX_RESPONSE_BYTES: '64', LOG_LEVEL: 'warn' },
      logs,
    );
    running.push(proxy);
    expect(logs.text).toContain(
      'V1_RETRIES=3 also governs the native v2 backend, V2_RETRIES being unset: set V2_RETRIES to give the native backend its own value',
    );
    expect(logs.text).not.toContain('V1_MAX_RESPONSE_BYTES');
    // a native Get is larger than 64 bytes: refused as too large; the same answer from v1 is read
    const native = await call(proxy.url, 'GET', `/iam/v2beta1/groups/${A}`, { token: TOKENS.alice });
    expect(native.status).toBe(503);
    expect(native.body.message).toMatch(/the native v2 backend sent more than 64 bytes/);
    const translated = await call(proxy.url, 'GET', `/iam/v2beta1/groups?page_size=1`, { token: TOKENS.alice });
    expect(translated.status).toBe(200);
  });
});
