// The bench's baseline, never used by the product: a hand-written proxy for one route (a translated
// identity Get) with node:http and one undici Pool, the same translation as v2proxy and
// byte-identical answers, and nothing else (no logs, no deadlines, no hooks). Prints its URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import { toV2 } from '../../src/translate/v1-to-v2.js';

const v1 = process.env.V1_BASE_URL as string;
const identities = loadMappings().find((r) => r.mapping.resource === 'identities');
if (!identities) throw new Error('no identities mapping');
const { rules, capabilities } = identities;
const pool = new Pool(v1, { connections: 128, keepAliveTimeout: 30_000 });
const PREFIX = '/iam/v2beta1/identities/';

const server = createServer(async (req, res) => {
  const uid = req.url?.startsWith(PREFIX) ? req.url.slice(PREFIX.length) : '';
  try {
    const answer = await pool.request({
      method: 'GET',
      path: `/iam/v1/identities?id=${encodeURIComponent(uid)}`,
      headers: { authorization: req.headers.authorization ?? '', accept: 'application/json' },
    });
    const body = (await answer.body.json()) as { items?: Record<string, unknown>[] };
    const item = body.items?.find((i) => i.id === uid);
    const text = item ? JSON.stringify(toV2(item, rules, capabilities)) : '{"code":5,"message":"Not found","details":[]}';
    res.writeHead(item ? 200 : 404, { 'content-type': 'application/json; charset=utf-8' }).end(text);
  } catch {
    res.writeHead(503).end();
  }
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`minimal proxy listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
