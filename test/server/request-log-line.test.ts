import { PassThrough } from 'node:stream';
import Fastify, { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AroundRequest, logged } from '../../src/exchange/around-request.js';
import { FastifyRequestCalls } from '../../src/server/fastify-request-calls.js';
import { lazyChildLogger } from '../../src/server/lazy-child-logger.js';
import { loggerOptions } from '../../src/server/logger-options.js';
import { OneLineRequestLog } from '../../src/server/one-line-request-log.js';

/** The line pino writes, with fastify's serializers, for a request's `{req, res, outcome, responseTime}`: what the hand-made line must equal. */
class PinoLine extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(_error: unknown, request: FastifyRequest, reply: FastifyReply): void {
    reply.log.info({ req: request, res: reply, outcome: 'answered', responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** An app whose request lines the lifecycle writes, as the proxy's are. */
function lifecycleApp(level: string, out: PassThrough) {
  const calls = new FastifyRequestCalls();
  const app = Fastify({ logger: loggerOptions(level, out), logController: calls, childLoggerFactory: lazyChildLogger });
  calls.serve(app);
  calls.runIn(new AroundRequest([logged(new OneLineRequestLog(level, out, app.log).write)]));
  return app;
}

/** An app whose request lines go to memory: written by the lifecycle (`direct`), or by pino. */
function appWith(direct: boolean) {
  const out = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  out.on('data', (d: Buffer) =>
    lines.push(
      ...d
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    ),
  );
  const app = direct ? lifecycleApp('info', out) : Fastify({ logger: loggerOptions('info', out), logController: new PinoLine() });
  app.get('/*', async (req) => {
    if (req.headers['x-warn']) req.log.warn('asked to warn');
    return { ok: true };
  });
  return { app, lines };
}

describe('the request log line', () => {
  it('written by hand is the line pino writes for the same request, field for field, whatever the URL and headers hold', async () => {
    const request = {
      method: 'GET' as const,
      url: '/iam/v2beta1/groups?filter=%22a%5C%22b%22&x=\u00e9\u2028',
      headers: { authorization: 'Bearer secret-token', 'accept-version': '2"\\', host: 'proxy.example:8443' },
    };
    const [a, b] = [appWith(true), appWith(false)];
    await a.app.inject(request);
    await b.app.inject(request);
    const [byHand, byPino] = [a.lines.at(-1), b.lines.at(-1)] as Record<string, unknown>[];
    const stable = (l: Record<string, unknown>) => ({ ...l, time: 0, reqId: '', responseTime: 0 });
    expect(Object.keys(byHand ?? {})).toEqual(Object.keys(byPino ?? {}));
    expect(stable(byHand ?? {})).toEqual(stable(byPino ?? {}));
    expect(byHand).toMatchObject({ msg: 'request completed', req: { version: '2"\\', host: 'proxy.example:8443' }, res: { statusCode: 200 } });
    expect(JSON.stringify(a.lines)).not.toContain('secret-token');
  });

  it('a request that logs on its own gets its child logger (with its request id) when it does, and only then', async () => {
    const { app, lines } = appWith(true);
    await app.inject({ method: 'GET', url: '/a', headers: { 'x-warn': '1' } });
    const [warned, completed] = lines.slice(-2);
    expect(warned).toMatchObject({ level: 40, msg: 'asked to warn', reqId: completed?.reqId });
  });

  it('LOG_LEVEL above info writes no request line at all', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => {
      text += d.toString();
    });
    const app = lifecycleApp('warn', out);
    app.get('/', async () => ({}));
    await app.inject({ method: 'GET', url: '/' });
    expect(text).toBe('');
  });
});
