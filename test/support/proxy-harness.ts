import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { demo, type RunningDemo } from '../../src/commands/demo.js';
import { type RunningProxy, serve } from '../../src/commands/serve.js';
import { loadEmulatorSettings, loadSettings } from '../../src/config/load-settings.js';
import type { Settings } from '../../src/config/settings-schema.js';
import { type EmulatorHarness, startHarness } from './emulator-harness.js';

/** Settings as the CLI would read them from this environment (loopback, a free port, quiet logs). */
export function settingsFrom(env: Record<string, string>): Settings {
  const loaded = loadSettings({ PORT: '0', LOG_LEVEL: 'silent', ...env });
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.settings;
}

/** Collects the proxy's log lines in memory. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export async function startProxy(env: Record<string, string>, logs?: LogCapture): Promise<RunningProxy> {
  return serve(settingsFrom(env), logs ? { logStream: logs } : {});
}

/** `v2proxy demo` in this process: the proxy on the embedded emulator, as the CLI reads this environment. */
export async function startDemo(env: Record<string, string>): Promise<RunningDemo> {
  const emulator = loadEmulatorSettings({ LOG_LEVEL: 'silent', ...env });
  if (!emulator.ok) throw new Error(emulator.error);
  return demo(settingsFrom(env), emulator.settings);
}

export interface ProxyOnEmulator {
  h: EmulatorHarness;
  proxy: RunningProxy;
  close(): Promise<void>;
}

/** The two-tenant emulator on loopback with a proxy in front of it. */
export async function startProxyOnEmulator(
  env: Record<string, string> = {},
  logs?: LogCapture,
  harness: Parameters<typeof startHarness>[0] = {},
): Promise<ProxyOnEmulator> {
  const h = await startHarness(harness);
  const proxy = await startProxy({ V1_BASE_URL: h.url, ...env }, logs);
  return {
    h,
    proxy,
    async close() {
      await proxy.close();
      await h.close();
    },
  };
}

export interface BothSides {
  h: EmulatorHarness;
  /** a proxy translating every route onto the emulator's v1 */
  translation: RunningProxy;
  /** a proxy sending every route to the emulator's native v2 */
  native: RunningProxy;
  close(): Promise<void>;
}

/** The two-tenant emulator with two proxies in front of it: one translating everything, one sending everything native. */
export async function startBothSides(): Promise<BothSides> {
  const dir = mkdtempSync(join(tmpdir(), 'v2proxy-both-sides-'));
  writeFileSync(join(dir, 'native.yaml'), 'routes:\n  - resource: "*"\n    native: 100\n');
  const h = await startHarness();
  const translation = await startProxy({ V1_BASE_URL: h.url });
  const native = await startProxy({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: join(dir, 'native.yaml') });
  return {
    h,
    translation,
    native,
    async close() {
      await translation.close();
      await native.close();
      await h.close();
    },
  };
}
