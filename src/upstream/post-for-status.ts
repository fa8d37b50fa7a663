import { type Dispatcher, request } from 'undici';

export interface PostOptions {
  headers: Record<string, string>;
  signal: AbortSignal;
  /** the pool it goes through (undici's global one when none) */
  dispatcher?: Dispatcher | undefined;
}

// what is read of an answer nobody looks into; a longer one is cut off with its connection
const ANSWER_LIMIT = 64 * 1024;

/**
 * POSTs `body` to a receiver whose answer only says whether it took it (a webhook, a trace
 * collector): the answer's status, its body read and dropped (bounded) so the connection can be
 * kept. Rejects when there is no answer (refused, reset, aborted by `signal`).
 */
export async function postForStatus(url: string, body: string | Uint8Array, opts: PostOptions): Promise<number> {
  const res = await request(url, {
    method: 'POST',
    body,
    headers: opts.headers,
    signal: opts.signal,
    ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
  });
  await res.body.dump({ limit: ANSWER_LIMIT });
  return res.statusCode;
}
