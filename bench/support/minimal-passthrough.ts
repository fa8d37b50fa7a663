// The passthrough bench's baseline, never used by the product: a hand-written v1 passthrough with
// node:http and one undici Pool (method, path, headers and body forwarded; status, headers and body
// streamed back), and nothing else (no logs, no deadlines, no hooks). Prints its URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

const pool = new Pool(process.env.V1_BASE_URL as string, { connections: 128, keepAliveTimeout: 30_000 });
// hop-by-hop headers are the connection's, not the message's
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host']);

const server = createServer(async (req, res) => {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP.has(k)) headers[k] = v;
  try {
    const answer = await pool.request({
      method: req.method as 'GET',
      path: req.url ?? '/',
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? null : req,
    });
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
    res.writeHead(answer.statusCode, out);
    // piped by hand, the cheapest way (stream/promises' pipeline costs an AbortController per call)
    answer.body.once('error', () => res.destroy());
    answer.body.pipe(res);
  } catch {
    res.writeHead(502).end();
  }
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`minimal passthrough listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
