import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { DestinationStream } from 'pino';
import type { EmulatorSettings, Settings } from '../config/settings-schema.js';
import type { RunningEmulator } from '../emulator/start-emulator.js';
import { runEmulator } from './emulator.js';
import { type RunningProxy, serve, serveBanner } from './serve.js';

export interface RunningDemo extends RunningProxy {
  emulator: RunningEmulator;
  /** whether the override secret was made here (and so may be written to .demo.env) */
  overrideSecretGenerated: boolean;
}

/**
 * `v2proxy demo` (`npm start`): the embedded emulator (v1, and native v2 on a port of its own) with
 * the proxy in front of it, every job of the proxy demonstrable on its data.
 */
export async function demo(settings: Settings, emu: EmulatorSettings, opts: { logStream?: DestinationStream } = {}): Promise<RunningDemo> {
  // the proxy's log level quiets the emulator too (its requests are the proxy's, logged there)
  const emulator = await runEmulator(emu, { quiet: true });
  try {
    // the tour shows an operator's override: the demo has a secret for it
    const overrideSecret = settings.rolloutOverrideSecret ?? `ovr-${randomBytes(18).toString('base64url')}`;
    const proxy = await serve(
      { ...settings, v1BaseUrl: emulator.url, v2BaseUrl: settings.v2BaseUrl ?? emulator.v2Url, rolloutOverrideSecret: overrideSecret },
      { ...(opts.logStream ? { logStream: opts.logStream } : {}), afterClose: () => emulator.close(), demo: true },
    );
    return { ...proxy, emulator, overrideSecretGenerated: settings.rolloutOverrideSecret === undefined };
  } catch (err) {
    await emulator.close();
    throw err;
  }
}

/** Shell-quoted, for a file the examples `source`. */
const quoted = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The demo's values as shell variables (`. ./.demo.env`), so the examples run as written on any
 * port: where everything listens, the demo organization, and the tokens. A token the operator set is
 * never written: the variable refers to the operator's own.
 */
export function demoEnv(d: RunningDemo, devTokenGiven: boolean): string {
  const vars: [string, string][] = [
    ['PROXY', quoted(d.url)],
    ['PROXY_HOST', quoted(new URL(d.url).host)],
    ['EMULATOR', quoted(d.emulator.url)],
    ['NATIVE', quoted(d.emulator.v2Url ?? '')],
    ['ORG', quoted(d.emulator.demoOrg ?? '')],
    ['DEV', devTokenGiven ? '"$DEV_TOKEN"' : quoted(d.emulator.devToken)],
    ['ADMIN', d.adminTokenGenerated ? quoted(d.settings.adminToken ?? '') : '"$ADMIN_TOKEN"'],
    ['OVERRIDE', d.overrideSecretGenerated ? quoted(d.settings.rolloutOverrideSecret ?? '') : '"$ROLLOUT_OVERRIDE_SECRET"'],
  ];
  return `# written by \`v2proxy demo\`: load it with  . ./.demo.env  (the examples use these)\n${vars.map(([k, v]) => `${k}=${v}`).join('\n')}\n`;
}

export function writeDemoEnv(path: string, d: RunningDemo, devTokenGiven: boolean): void {
  // it holds tokens: for its owner only
  writeFileSync(path, demoEnv(d, devTokenGiven), { mode: 0o600 });
}

/** What `demo` prints: where everything is, and a command to paste. */
export function demoBanner(d: RunningDemo, devTokenGiven: boolean, envFile: string): string[] {
  const emu = d.emulator;
  const lines = [...serveBanner(d), `v1 emulator listening on ${emu.url}`];
  if (emu.v2Url) lines.push(`native v2 emulator listening on ${emu.v2Url}`);
  if (emu.demoOrg) lines.push(`demo organization uid: ${emu.demoOrg}`);
  // a token the operator supplied is never printed; a generated one is theirs only through this banner
  lines.push(`dev token (superuser on the emulator): ${devTokenGiven ? 'the DEV_TOKEN you set' : emu.devToken}`);
  lines.push(`these values are in ${envFile}: load them with  . ${envFile.includes('/') ? envFile : `./${envFile}`}`);
  const path = emu.demoOrg ? `/iam/v2beta1/groups/${emu.demoOrg}` : '/iam/v2beta1/groups';
  lines.push(`try: curl -s -H "Authorization: Bearer ${devTokenGiven ? '$DEV_TOKEN' : emu.devToken}" "${d.url}${path}"`);
  return lines;
}
