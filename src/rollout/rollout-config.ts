import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

export const OPERATIONS = ['list', 'get', 'create', 'update', 'delete'] as const;
export type Operation = (typeof OPERATIONS)[number];

const percent = z.number({ error: 'must be a number from 0 to 100' }).min(0, { error: 'must be at least 0' }).max(100, { error: 'must be at most 100' });

const RouteSchema = z.strictObject({
  resource: z.string().regex(/^(\*|[a-zA-Z]+)$/, { error: "must be a v2 collection name or '*'" }),
  operations: z
    .array(z.enum(OPERATIONS, { error: `must be one of ${OPERATIONS.join(', ')}` }))
    .min(1)
    .default([...OPERATIONS]),
  native: percent.default(0),
  /** share of reads (list, get) also sent to the side that did not serve them, and compared */
  shadow: percent.default(0),
  /** share of shadowed reads that also ask the serving side twice: the noise baseline */
  noise: percent.default(0),
  /** field paths left out of the comparison (`groups[].createTime`) */
  ignore: z.array(z.string().min(1).max(500)).max(200).default([]),
  /** a field path is reported when (d − n) / (d + n) passes this percentage… */
  relativeThreshold: percent.default(20),
  /** …and (d − n) / compared passes this one */
  absoluteThreshold: percent.default(0.03),
});

const GuardSchema = z.strictObject({
  windowSeconds: z.number().positive().max(86_400).default(30),
  minRequests: z.number().int().min(1).default(20),
  maxErrorRate: z.number().min(0).max(1).default(0.05),
  cooldownSeconds: z.number().min(0).max(86_400).default(60),
  /** share of compared shadow reads with a reported difference above which the route goes back to translation */
  maxDiffRate: z.number().min(0).max(1).optional(),
});

/** The rollout file: which v2 routes go to the native backend, for which share of callers. */
export const RolloutSchema = z.strictObject({
  killSwitch: z.boolean().default(false),
  stickyBy: z
    .string()
    .regex(/^(subject|token|header:[A-Za-z0-9-]+)$/, { error: 'must be subject, token or header:<name>' })
    .default('subject'),
  allowOverride: z.boolean().default(true),
  salt: z.string().max(200).default('v2proxy'),
  routes: z.array(RouteSchema).max(1000).default([]),
  guard: GuardSchema.optional(),
});

export type RolloutConfig = z.output<typeof RolloutSchema>;
export type RolloutRoute = RolloutConfig['routes'][number];
export type GuardConfig = z.output<typeof GuardSchema>;

/** Every v2 request translated, no override: what runs without a rollout file. */
export const NO_ROLLOUT: RolloutConfig = RolloutSchema.parse({ allowOverride: false });

export type RolloutParse = { ok: true; config: RolloutConfig } | { ok: false; error: string };

/** The resources a rollout may name, each with the operations it has. */
export type KnownRoutes = ReadonlyMap<string, readonly Operation[]>;

const pathText = (path: readonly PropertyKey[]) =>
  path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('') || '(top level)';

/**
 * Routes naming a resource or an operation that does not exist: each named, with what does. (A route
 * that names no operations means all the resource has.)
 */
function unknownRoutes(config: RolloutConfig, raw: unknown, known: KnownRoutes): string[] {
  const problems: string[] = [];
  const given = (i: number) => ((raw as { routes: { operations?: unknown }[] }).routes[i] as { operations?: unknown }).operations !== undefined;
  config.routes.forEach((route, i) => {
    if (route.resource === '*') return;
    const operations = known.get(route.resource);
    if (!operations) {
      problems.push(`routes[${i}].resource: unknown resource "${route.resource}"; known: ${[...known.keys()].sort().join(', ')}`);
      return;
    }
    if (!given(i)) return;
    const missing = route.operations.filter((op) => !operations.includes(op));
    if (missing.length > 0) {
      problems.push(`routes[${i}].operations: ${route.resource} has no ${missing.join(', ')}; it has ${operations.join(', ')}`);
    }
  });
  return problems;
}

/**
 * Parses a rollout file's text (YAML, of which JSON is a subset): a result, never a throw, with every
 * problem named by its path (`routes[0].native: must be at most 100`), and, given the `known`
 * resources, routes naming one that does not exist refused with the list of those that do.
 */
export function parseRollout(text: string, known?: KnownRoutes): RolloutParse {
  let raw: unknown;
  try {
    raw = parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    return { ok: false, error: `not YAML or JSON: ${(err as Error).message.split('\n', 1)[0]}` };
  }
  const result = RolloutSchema.safeParse(raw ?? {});
  if (!result.success) {
    return { ok: false, error: result.error.issues.map((issue) => `${pathText(issue.path)}: ${issue.message}`).join('; ') };
  }
  const unknown = known ? unknownRoutes(result.data, raw, known) : [];
  if (unknown.length > 0) return { ok: false, error: unknown.join('; ') };
  return { ok: true, config: result.data };
}
