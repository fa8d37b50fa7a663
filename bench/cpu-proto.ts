import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { CLI, start } from './support/child-process.js';
const TOKEN = 'bench-dev-token-0123456789';
const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const emulator = await start(
  CLI,
  ['emulator'],
  { DEV_TOKEN: TOKEN, LOG_LEVEL: 'silent', SIM_V2: 'false' },
  /v1 emulator listening on (\S+)\ndemo organization uid: (\w+)/,
);
const [, v1Url, org] = emulator.match as unknown as [string, string, string];
const ids = (await (await fetch(`${v1Url}/iam/v1/identities?uidp.descendants_of=${org}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as any;
const uid = ids.items[0].id;
const v2 = await start(
  fileURLToPath(new URL('./support/start-v2proxy.ts', import.meta.url)),
  [],
  { V1_BASE_URL: v1Url, LOG_LEVEL: process.env.V2LOG ?? 'info' },
  /v2proxy listening on (\S+)/,
);
const min = await start(fileURLToPath(new URL('./support/minimal-proxy.ts', import.meta.url)), [], { V1_BASE_URL: v1Url }, /minimal proxy listening on (\S+)/);
async function load(url: string, n: number, c: number) {
  const pool = new Pool(url, { connections: c });
  let left = n;
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (left-- > 0) {
        const r = await pool.request({ method: 'GET', path: `/iam/v2beta1/identities/${uid}`, headers: { authorization: `Bearer ${TOKEN}` } });
        await r.body.dump();
      }
    }),
  );
  await pool.close();
}
const sides = [
  ['v2proxy', v2],
  ['minimal', min],
] as const;
for (const [, s] of sides) await load(s.match[1]!, 3000, 8);
const N = Number(process.env.N ?? 3000);
const res: Record<string, number[]> = { v2proxy: [], minimal: [] };
for (let r = 0; r < Number(process.env.R ?? 6); r++)
  for (const [name, s] of sides) {
    const c0 = cpuMs(s.child.pid!);
    await load(s.match[1]!, N, Number(process.env.C ?? 8));
    res[name]!.push(((cpuMs(s.child.pid!) - c0) * 1000) / N);
  }
console.log(
  res,
  res.v2proxy!.map((v, i) => (v / res.minimal![i]!).toFixed(2)),
);
for (const [, s] of sides) s.child.kill();
emulator.child.kill();
