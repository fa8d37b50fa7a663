import type { FastifyRequest } from 'fastify';
import type { ApiTokens } from './api-tokens.js';
import { bearerOf } from './authenticate.js';
import { isPlainObject } from './body.js';
import { claimMatches } from './claim-match.js';
import { denied, invalid, unauthenticated } from './grpc-status.js';
import type { OidcVerifier } from './oidc-verifier.js';
import { Query } from './query.js';
import type { Store } from './store.js';
import { formatTimestamp } from './timestamp.js';

type Params = Record<string, string | string[] | undefined>;

/**
 * `GET|POST /sts/exchange`: trades a trusted third-party OIDC token for a one-hour API token of the
 * identity whose `claimMatch` it satisfies. Parameters come from the query (GET) or a form body (POST).
 */
export async function exchange(
  req: FastifyRequest,
  deps: { store: Store; verifier: OidcVerifier; tokens: ApiTokens; now: () => number },
): Promise<{ token: string; expiry: string }> {
  const fromBody = req.method === 'POST' && isPlainObject(req.body) ? (req.body as Params) : {};
  const q = new Query({ ...(req.query as Params), ...fromBody });
  const bearer = bearerOf(req.headers.authorization);
  if (bearer === undefined) throw unauthenticated('missing bearer identity token');
  const audiences = q.all('aud').filter((a) => a !== '');
  const identityUid = q.one('identity') ?? '';
  if (audiences.length === 0) throw invalid('aud is required');
  if (identityUid === '') throw invalid('identity is required');

  const claims = await deps.verifier.verify(bearer);
  const identity = deps.store.identities.get(identityUid);
  const claimMatch = identity?.relationship.claimMatch;
  if (!identity || !isPlainObject(claimMatch) || !claimMatches(claimMatch, claims)) {
    throw denied(`the token may not assume identity "${identityUid}"`);
  }
  const now = deps.now();
  identity.lastSeen = now;
  const minted = await deps.tokens.mint(identity.id, audiences, now);
  return { token: minted.token, expiry: formatTimestamp(minted.expiry) };
}
