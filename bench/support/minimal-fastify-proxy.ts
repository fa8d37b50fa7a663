// The framework's share of the floor, never used by the product: the minimal proxy's one route
// (minimal-get.ts) as a fastify route, logger off, no hooks: what fastify alone adds to node:http.
import Fastify from 'fastify';
import { PREFIX, minimalGet } from './minimal-get.js';

const app = Fastify({ logger: false });
app.get(`${PREFIX}*`, async (req, reply) => {
  const { status, text } = await minimalGet(req.url, req.headers.authorization);
  return reply.code(status).type('application/json; charset=utf-8').send(text);
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`minimal fastify proxy listening on http://127.0.0.1:${(app.server.address() as { port: number }).port}\n`);
