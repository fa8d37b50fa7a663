import type { OverrideSecret } from './override-secret.js';
import { OVERRIDE_SECRET_HEADER } from './override-secret.js';
import type { Operation } from './rollout-config.js';
import { type RolloutSnapshot, type RouteSnapshot, rolledBackAt } from './rollout-snapshot.js';
import { bucketOf, inNativeShare, stickyKeyOf } from './sticky-bucket.js';

export type Backend = 'translate' | 'native';

/** The rule that decided a request's side. */
export type DecisionRule = 'no-native-backend' | 'no-rollout' | 'kill-switch' | 'page-token' | 'guard' | 'override' | 'no-route' | 'bucket';

/**
 * The order in which a request's side is decided: the first rule that applies decides. docs/rollout.md
 * shows this table, and a test holds the two together.
 */
export const PRECEDENCE: readonly { rule: DecisionRule; when: string; side: string }[] = [
  { rule: 'no-native-backend', when: 'no native backend is configured (`V2_BASE_URL`)', side: 'translate' },
  { rule: 'no-rollout', when: 'no rollout file is configured (`ROLLOUT_FILE`)', side: 'translate' },
  { rule: 'kill-switch', when: 'the kill switch is on (the file, or an operator)', side: 'translate, page tokens and overrides included' },
  {
    rule: 'page-token',
    when: 'a list continued with a `page_token`',
    side: "translate for the proxy's own tokens; native for any other when a route serves the list (whatever its share or the guard says); with no route, the rules below (an operator's override, else translate, which refuses it: 400)",
  },
  { rule: 'guard', when: 'the guard rolled the route back, until its cooldown ends', side: 'translate' },
  {
    rule: 'override',
    when: '`x-v2proxy-backend: translate|native` with `x-v2proxy-override-secret` (`allowOverride: true` and `ROLLOUT_OVERRIDE_SECRET` set)',
    side: 'the side asked for; never counted by the guard, the analysis or the diff gates',
  },
  { rule: 'no-route', when: 'no route serves the operation', side: 'translate' },
  { rule: 'bucket', when: 'otherwise', side: "native when the caller's sticky bucket is within the route's native share" },
];

export interface Decision {
  backend: Backend;
  route: RouteSnapshot | undefined;
  why: DecisionRule;
  /** whether what the request sees counts toward the guard, the progressive analysis and the diff gates */
  evidence: boolean;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

export interface DecisionInput {
  resource: string;
  operation: Operation;
  headers: Headers;
  /** for a list continued with a page token: whether this proxy issued it (asked only when it matters) */
  issuedHere?: (() => boolean) | undefined;
}

/** What a replica adds to the snapshot: whether it has a native backend and the override secret, and the time. */
export interface DecisionContext {
  nativeBackend: boolean;
  overrideSecret: OverrideSecret | undefined;
  now: number;
}

const decision = (backend: Backend, route: RouteSnapshot | undefined, why: DecisionRule, evidence = true): Decision => ({ backend, route, why, evidence });

/** Which side serves a request: the first rule of PRECEDENCE that applies, read from one snapshot. */
export function decideBackend(s: RolloutSnapshot, input: DecisionInput, ctx: DecisionContext): Decision {
  const route = s.routeFor(input.resource, input.operation);
  if (!ctx.nativeBackend) return decision('translate', route, 'no-native-backend');
  if (s.local.file === undefined) return decision('translate', route, 'no-rollout');
  if (s.killSwitch) return decision('translate', route, 'kill-switch');
  // a walk finishes on the side that issued its token: a token from elsewhere is the native side's
  // where a route serves the list (else only an operator's override sends it there)
  if (input.issuedHere) {
    if (input.issuedHere()) return decision('translate', route, 'page-token');
    if (route) return decision('native', route, 'page-token');
  }
  if (rolledBackAt(route, ctx.now)) return decision('translate', route, 'guard');
  const forced = input.headers['x-v2proxy-backend'];
  if (s.config.allowOverride && (forced === 'translate' || forced === 'native') && ctx.overrideSecret?.matches(input.headers[OVERRIDE_SECRET_HEADER])) {
    return decision(forced, route, 'override', false);
  }
  if (!route) return decision('translate', route, 'no-route');
  const bucket = bucketOf(s.config.salt, route.bucketKey, stickyKeyOf(s.config.stickyBy, input.headers));
  return decision(inNativeShare(bucket, route.share.native) ? 'native' : 'translate', route, 'bucket');
}
