/**
 * W3C Trace Context (`traceparent`, `tracestate`) and Baggage, as the client sent them: forwarded on
 * every upstream call its request causes, so a trace crosses the proxy without a tracing SDK in it.
 * Nothing is made up: a request without a valid `traceparent` forwards none (and no `tracestate`,
 * which means nothing without it); `baggage` stands on its own. Oversized values are dropped.
 */
export type TraceContext = Readonly<Partial<Record<'traceparent' | 'tracestate' | 'baggage', string>>>;

// version-traceid-parentid-flags; version ff is invalid, and a later version may append fields
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-[^\s]*)?$/;
// the W3C Baggage limit; tracestate gets the same room
const MAX_BYTES = 8192;

type HeaderValue = string | readonly string[] | null | undefined;

function validTraceparent(value: HeaderValue): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = TRACEPARENT.exec(value);
  if (!m || m[1] === 'ff' || /^0+$/.test(m[2] as string) || /^0+$/.test(m[3] as string)) return undefined;
  if (m[1] === '00' && m[4] !== undefined) return undefined;
  return value;
}

/** A list-valued header (several header lines join with commas), bounded. */
function listValue(value: HeaderValue): string | undefined {
  const joined = typeof value === 'string' ? value : value ? value.join(',') : undefined;
  return joined !== undefined && joined !== '' && joined.length <= MAX_BYTES ? joined : undefined;
}

/** The trace headers of a request (by lower-case name, as Node gives them), or undefined when it has none. */
export function traceContextOf(headers: { readonly [name: string]: HeaderValue }): TraceContext | undefined {
  const traceparent = validTraceparent(headers.traceparent);
  const tracestate = traceparent === undefined ? undefined : listValue(headers.tracestate);
  const baggage = listValue(headers.baggage);
  if (traceparent === undefined && baggage === undefined) return undefined;
  return {
    ...(traceparent !== undefined ? { traceparent } : {}),
    ...(tracestate !== undefined ? { tracestate } : {}),
    ...(baggage !== undefined ? { baggage } : {}),
  };
}
