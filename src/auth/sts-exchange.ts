import { apiError, invalidFields } from '../errors/error-registry.js';
import { isObject } from '../json/json-path.js';
import type { RequestSpans, UpstreamCall } from '../upstream/attempt-spans.js';
import type { TraceContext } from '../upstream/trace-context.js';
import type { QueryValues, V1Client } from '../upstream/v1-client.js';
import { v1ErrorToApiError } from '../upstream/v1-error.js';
import type { LifeSignal } from '../upstream/request-life.js';

export interface ExchangeSettings {
  publicUrl: string;
  v1Audience: string;
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');

/**
 * The exchange's parameters as the query or a body gave them: each a text or a list of texts. A
 * JSON body may hold anything; a value of another type is refused by its name, never passed on.
 */
export function exchangeParams(given: unknown): QueryValues {
  if (given === undefined || given === null) return {};
  if (typeof given !== 'object' || Array.isArray(given)) throw invalidFields([{ field: 'body', description: 'must be an object of parameters' }]);
  const out: Record<string, string | readonly string[]> = {};
  const wrong: string[] = [];
  for (const [name, value] of Object.entries(given)) {
    if (typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))) out[name] = value as string | string[];
    else if (value !== undefined) wrong.push(name);
  }
  if (wrong.length > 0) throw invalidFields(wrong.map((field) => ({ field, description: 'must be a string or a list of strings' })));
  return out;
}

/** Audiences naming the proxy become the v1 audience; any other audience is left as it is. */
export function rewriteAudiences(params: QueryValues, settings: ExchangeSettings): QueryValues {
  const out: QueryValues = { ...params };
  const aud = params.aud;
  if (aud === undefined) return out;
  const rewrite = (a: string) => (trimSlash(a) === trimSlash(settings.publicUrl) ? settings.v1Audience : a);
  out.aud = typeof aud === 'string' ? rewrite(aud) : aud.map(rewrite);
  return out;
}

/**
 * `GET|POST /sts/exchange` on the proxy: forwarded to the v1 issuer with the caller's Authorization
 * and `aud` rewritten; the answer comes back as v1 gives it, errors as AIP-193.
 */
export async function exchangeToken(
  issuer: V1Client,
  req: {
    method: 'GET' | 'POST';
    params: QueryValues;
    authorization: string | undefined;
    requestId: string;
    signal?: LifeSignal | undefined;
    trace?: TraceContext | undefined;
    spans?: RequestSpans | undefined;
    purpose?: UpstreamCall['purpose'];
  },
  settings: ExchangeSettings,
): Promise<unknown> {
  const params = rewriteAudiences(req.params, settings);
  const answer = await issuer.call({ method: req.method, path: '/sts/exchange', ...(req.method === 'GET' ? { query: params } : { form: params }) }, req);
  if (answer.status < 200 || answer.status > 299) throw v1ErrorToApiError(answer.status, answer.body);
  if (!isObject(answer.body) || typeof answer.body.token !== 'string') {
    throw apiError('ISSUER_NO_TOKEN');
  }
  return answer.body;
}
