import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

/** Starts a TypeScript entry in its own Node process and resolves with the first stdout line matching `until`. */
export function start(script: string, args: string[], env: Record<string, string>, until: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${out}`)), 30_000);
    const onData = (c: Buffer) => {
      out += c.toString();
      const match = until.exec(out);
      if (match) {
        clearTimeout(timer);
        // from here on the child's output (its logs) is drained, not kept: a bench must not pay for it
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve({ child, match });
      }
    };
    child.stdout?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}: ${out}`)));
  });
}

/** The v1 emulator (demo data, no native v2) in its own process: its URL and the demo organization. */
export async function startV1Emulator(devToken: string): Promise<{ child: ChildProcess; v1Url: string; org: string }> {
  const { child, match } = await start(
    CLI,
    ['emulator'],
    { DEV_TOKEN: devToken, LOG_LEVEL: 'silent', SIM_V2: 'false' },
    /v1 emulator listening on (\S+)\ndemo organization uid: (\w+)/,
  );
  return { child, v1Url: match[1] as string, org: match[2] as string };
}
