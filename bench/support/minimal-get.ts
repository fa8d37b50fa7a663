// What both of the bench's baselines do for a translated identity Get, never used by the product:
// one undici Pool call to v1, the same translation as v2proxy, byte-identical answers, nothing else.
import { Pool } from 'undici';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import { toV2 } from '../../src/translate/v1-to-v2.js';

const identities = loadMappings().find((r) => r.mapping.resource === 'identities');
if (!identities) throw new Error('no identities mapping');
const { rules, capabilities } = identities;
const pool = new Pool(process.env.V1_BASE_URL as string, { connections: 128, keepAliveTimeout: 30_000 });
export const PREFIX = '/iam/v2beta1/identities/';

/** The status and JSON text of the v2 answer for `url` (503 when v1 cannot be reached). */
export async function minimalGet(url: string | undefined, authorization: string | undefined): Promise<{ status: number; text: string }> {
  const uid = url?.startsWith(PREFIX) ? url.slice(PREFIX.length) : '';
  try {
    const answer = await pool.request({
      method: 'GET',
      path: `/iam/v1/identities?id=${encodeURIComponent(uid)}`,
      headers: { authorization: authorization ?? '', accept: 'application/json' },
    });
    const body = (await answer.body.json()) as { items?: Record<string, unknown>[] };
    const item = body.items?.find((i) => i.id === uid);
    return item
      ? { status: 200, text: JSON.stringify(toV2(item, rules, capabilities)) }
      : { status: 404, text: '{"code":5,"message":"Not found","details":[]}' };
  } catch {
    return { status: 503, text: '' };
  }
}
