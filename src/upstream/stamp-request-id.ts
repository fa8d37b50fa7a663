import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';

const HEADER = 'x-request-id';

// undici takes headers as a flat array, a record, or an iterable of pairs
function hasHeader(headers: Dispatcher.DispatchOptions['headers'], name: string): boolean {
  if (!headers) return false;
  if (Array.isArray(headers)) return headers.some((h, i) => i % 2 === 0 && String(h).toLowerCase() === name);
  if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') return true; // left as given
  // the proxy's own calls name it in lower case: found without a scan
  if ((headers as Record<string, unknown>)[name] !== undefined) return true;
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

/** A call's options with an `x-request-id`: the caller's, or a new one. */
export function withRequestId(opts: Dispatcher.DispatchOptions): Dispatcher.DispatchOptions {
  if (hasHeader(opts.headers, HEADER)) return opts;
  const headers = Array.isArray(opts.headers)
    ? [...opts.headers, HEADER, randomUUID()]
    : { ...(opts.headers as Record<string, string> | undefined), [HEADER]: randomUUID() };
  return { ...opts, headers };
}
