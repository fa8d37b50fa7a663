// The bench's baseline, never used by the product: a hand-written proxy for one route (a translated
// identity Get) with node:http and one undici Pool (minimal-get.ts), and nothing else (no logs, no
// deadlines, no hooks). Prints its URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { minimalGet } from './minimal-get.js';

const server = createServer(async (req, res) => {
  const { status, text } = await minimalGet(req.url, req.headers.authorization);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(text);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`minimal proxy listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
