import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/server/logger-options.js';
import { LogCapture } from '../support/proxy-harness.js';

describe('logger redaction', () => {
  it("censors Authorization, cookies and the operators' override secret wherever a request or header object is logged", () => {
    const capture = new LogCapture();
    const { stream: _unused, ...options } = loggerOptions('info');
    const log = pino(options, capture);
    log.info(
      { req: { headers: { authorization: 'Bearer secret-1', cookie: 'sid=secret-2', accept: '*/*', 'x-v2proxy-override-secret': 'secret-6' } } },
      'request',
    );
    log.info({ headers: { authorization: 'Bearer secret-3', 'x-v2proxy-override-secret': 'secret-7' } }, 'upstream');
    log.info({ authorization: 'Bearer secret-4' }, 'bare');
    expect(capture.lines).toHaveLength(3);
    expect(capture.text).not.toMatch(/secret-\d/);
    expect(JSON.parse(capture.lines[0] ?? '{}').req.headers).toEqual({
      authorization: '[redacted]',
      cookie: '[redacted]',
      accept: '*/*',
      'x-v2proxy-override-secret': '[redacted]',
    });
  });

  it("drops the raw bytes Node's HTTP parser attaches to client errors (they hold the bearer token)", () => {
    const capture = new LogCapture();
    const { stream: _unused, ...options } = loggerOptions('trace');
    const log = pino(options, capture);
    const packet = Buffer.from('GET /iam/v2beta1/groups HTTP/1.1\r\nAuthorization: Bearer secret-5\r\nX: \u0000\r\n\r\n');
    log.trace({ err: Object.assign(new Error('Invalid header value char'), { code: 'HPE_INVALID_HEADER_TOKEN', rawPacket: packet }) }, 'client error');
    const line = JSON.parse(capture.lines[0] ?? '{}');
    expect(line.err).toMatchObject({ type: 'Error', message: 'Invalid header value char', code: 'HPE_INVALID_HEADER_TOKEN' });
    expect(line.err.rawPacket).toBeUndefined();
    expect(capture.text).not.toContain('secret-5');
    expect(capture.text).not.toContain(String([...Buffer.from('secret-5')]));
  });
});
