import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_ID = /^[\w.:-]{1,128}$/;

/** Keeps a caller's request id when it is short and plain (it ends up in logs), otherwise makes one. */
export function requestIdOf(req: { headers: IncomingHttpHeaders }): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}
