import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utf8Text, wholeAnswer } from '../../src/upstream/whole-answer.js';

describe('an answer read whole from undici handler calls (a real loopback server)', () => {
  let server: Server;
  let pool: Pool;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/chunks') {
        // several writes, each flushed on its own: the answer arrives in several chunks
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
        res.write('{"items":[');
        setImmediate(() => {
          res.write('"ü",');
          setImmediate(() => res.end('"z"]}'));
        });
      } else if (req.url === '/bom') {
        res.writeHead(200).end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]));
      } else if (req.url === '/broken') {
        res.writeHead(200, { 'content-length': '100' });
        res.write('{"cut');
        setImmediate(() => res.destroy());
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    await pool.close();
    server.close();
  });

  it('joins the chunks and finds the content type whatever its case', async () => {
    const answer = await wholeAnswer(pool, { method: 'GET', path: '/chunks' });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(utf8Text(answer.body))).toEqual({ items: ['ü', 'z'] });
  });

  it('an empty answer is an empty body; a byte order mark is dropped from the text', async () => {
    const empty = await wholeAnswer(pool, { method: 'GET', path: '/none' });
    expect([empty.status, empty.body.length, empty.contentType]).toEqual([404, 0, 'text/plain']);
    expect(utf8Text((await wholeAnswer(pool, { method: 'GET', path: '/bom' })).body)).toBe('{"a":1}');
  });

  it('an answer cut short is an error, not a short body', async () => {
    await expect(wholeAnswer(pool, { method: 'GET', path: '/broken' })).rejects.toThrow();
  });

  it('a dispatcher that refuses at once (an open breaker) is a rejection, not a throw', async () => {
    const refusing = {
      dispatch: () => {
        throw new Error('circuit open');
      },
    } as unknown as Pool;
    await expect(wholeAnswer(refusing, { method: 'GET', path: '/' })).rejects.toThrow('circuit open');
  });
});
