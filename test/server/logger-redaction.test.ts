import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/server/logger-options.js';
import { LogCapture } from '../support/proxy-harness.js';

describe('logger redaction', () => {
  it('censors Authorization and cookies wherever a request or header object is logged', () => {
    const capture = new LogCapture();
    const { stream: _unused, ...options } = loggerOptions('info');
    const log = pino(options, capture);
    log.info({ req: { headers: { authorization: 'Bearer secret-1', cookie: 'sid=secret-2', accept: '*/*' } } }, 'request');
    log.info({ headers: { authorization: 'Bearer secret-3' } }, 'upstream');
    log.info({ authorization: 'Bearer secret-4' }, 'bare');
    expect(capture.lines).toHaveLength(3);
    expect(capture.text).not.toMatch(/secret-\d/);
    expect(JSON.parse(capture.lines[0] ?? '{}').req.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]', accept: '*/*' });
  });
});
