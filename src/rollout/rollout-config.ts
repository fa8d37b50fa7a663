import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

export const OPERATIONS = ['list', 'get', 'create', 'update', 'delete'] as const;
export type Operation = (typeof OPERATIONS)[number];

const percent = z.number({ error: 'must be a number from 0 to 100' }).min(0, { error: 'must be at least 0' }).max(100, { error: 'must be at most 100' });

/** A duration: seconds as a number, or a number with its unit (`500ms`, `60s`, `10m`, `1h`). */
const duration = z.union([
  z
    .number({ error: 'must be seconds (a number) or a duration such as 60s, 10m, 1h' })
    .min(0)
    .max(7 * 86_400),
  z.string().regex(/^\d+(\.\d+)?(ms|s|m|h)$/, { error: 'must be seconds (a number) or a duration such as 60s, 10m, 1h' }),
]);
export type Duration = z.output<typeof duration>;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration of the rollout file in milliseconds (NaN for text that is not one: checks run on refused values too). */
export function durationMs(d: Duration): number {
  if (typeof d === 'number') return d * 1000;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(d);
  return m ? Number(m[1]) * (UNIT_MS[m[2] as string] as number) : Number.NaN;
}

/** An enum whose refusal says what it may be (`is not one of list, get, …`), never the value given: a refusal quotes nothing of the file. */
function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `is not one of ${values.join(', ')}` });
}

const rate = z.number().min(0, { error: 'must be a share from 0 to 1' }).max(1, { error: 'must be a share from 0 to 1' });

export const ANALYSIS_CHECKS = ['maxErrorRate', 'maxErrorRateIncrease', 'maxLatencyRatio', 'maxDiffRate', 'maxDiffRateIncrease', 'maxWriteDiffRate'] as const;
/** the operations that change a resource: what `verifyWrites` samples */
export const WRITE_OPERATIONS: readonly Operation[] = ['create', 'update', 'delete'];
export type AnalysisCheck = (typeof ANALYSIS_CHECKS)[number];

/** One step of a progressive route: a native share held at least `pause`, until the analysis lets it go on. */
const StepSchema = z.strictObject({
  native: percent.default(0),
  /** share of reads compared in this step (default: the route's `shadow`) */
  shadow: percent.optional(),
  pause: duration.default(0),
  /** the step goes on only once this many reads were compared in it, with at most this share differing */
  until: z.strictObject({ compared: z.number().int().min(1).max(1e9), maxDiffRate: rate.default(0) }).optional(),
});

/** the minimum sample per side of a check when the file names none */
export const DEFAULT_MIN_SAMPLES = 200;
/** the error check of a route whose analysis names none */
export const DEFAULT_ERROR_RATE_INCREASE = 0.005;

/** How a progressive route's steps are judged: each check on everything its step saw so far, with an interval at a level that holds over the whole rollout. */
const AnalysisSchema = z
  .strictObject({
    // a value the duration itself refused is not also too short
    interval: duration.refine((d) => !(durationMs(d) < 100), { error: 'must be at least 100ms' }).default('60s'),
    /** fewer on a side of a check (native or translated requests, compared or noise reads) make it inconclusive */
    minSamples: z.number().int().min(1).max(1e9).optional(),
    /** the earlier name of minSamples */
    minRequests: z.number().int().min(1).max(1e9).optional(),
    /** the chance that every interval of a check over the whole rollout holds the true value (a false fail: at most 1 − this) */
    confidence: z.number().min(0.5, { error: 'must be from 0.5 to 0.9999' }).max(0.9999, { error: 'must be from 0.5 to 0.9999' }).default(0.98),
    /** native error rate (simple mode: against a fixed limit) */
    maxErrorRate: rate.optional(),
    /** native error rate − translated error rate (default 0.005 when neither error check is given) */
    maxErrorRateIncrease: rate.optional(),
    /** native latency quantile / translated latency quantile */
    maxLatencyRatio: z.number().positive().max(1000).optional(),
    latencyQuantile: z.number().min(0.5, { error: 'must be from 0.5 to 0.999' }).max(0.999, { error: 'must be from 0.5 to 0.999' }).default(0.99),
    /** share of compared reads with a reported difference (simple mode: against a fixed limit) */
    maxDiffRate: rate.optional(),
    /** share of compared reads that differ − share of the noise arm's reads that differ */
    maxDiffRateIncrease: rate.optional(),
    /** share of verified writes with a difference (intent, answer or the other side) */
    maxWriteDiffRate: rate.optional(),
    failureLimit: z.number().int().min(1).max(1000).default(2),
    /** checks evaluated and shown that never fail a step */
    dryRun: z.array(oneOf(ANALYSIS_CHECKS)).default([]),
  })
  .transform(({ minRequests, minSamples, ...a }) => ({
    ...a,
    minSamples: minSamples ?? minRequests ?? DEFAULT_MIN_SAMPLES,
    maxErrorRateIncrease: a.maxErrorRateIncrease ?? (a.maxErrorRate === undefined ? DEFAULT_ERROR_RATE_INCREASE : undefined),
  }));

const RouteSchema = z.strictObject({
  resource: z.string().regex(/^(\*|[a-zA-Z]+)$/, { error: "must be a v2 collection name or '*'" }),
  operations: z
    .array(oneOf(OPERATIONS))
    .min(1)
    .default([...OPERATIONS]),
  native: percent.default(0),
  /** share of reads (list, get) also sent to the side that did not serve them, and compared */
  shadow: percent.default(0),
  /** share of shadowed reads that also ask the serving side twice: the noise baseline */
  noise: percent.default(0),
  /** share of writes (create, update, delete) read back after they answer, and checked */
  verifyWrites: percent.default(0),
  /** field paths left out of the comparison (`groups[].createTime`) */
  ignore: z.array(z.string().min(1).max(500)).max(200).default([]),
  /** a field path is reported when (d − n) / (d + n) passes this percentage… */
  relativeThreshold: percent.default(20),
  /** …and (d − n) / compared passes this one */
  absoluteThreshold: percent.default(0.03),
  /** a progressive route: its native share moves through these steps, gated by `analysis` (instead of a fixed `native`) */
  steps: z.array(StepSchema).min(1).max(50).optional(),
  analysis: AnalysisSchema.optional(),
});

const GuardSchema = z.strictObject({
  windowSeconds: z.number().positive().max(86_400).default(30),
  minRequests: z.number().int().min(1).default(20),
  maxErrorRate: z.number().min(0).max(1).default(0.05),
  cooldownSeconds: z.number().min(0).max(86_400).default(60),
  /** share of compared shadow reads with a reported difference above which the route goes back to translation */
  maxDiffRate: z.number().min(0).max(1).optional(),
});

/** Operators' promotions that need a second operator: those moving a route above this native share. */
const ApprovalsSchema = z.strictObject({
  nativeAbove: percent,
  /** a promotion asked for and not approved within this long is forgotten */
  expireAfter: duration.refine((d) => !(durationMs(d) < 1000), { error: 'must be at least 1s' }).default('1h'),
});

/** The rollout file: which v2 routes go to the native backend, for which share of callers. */
export const RolloutSchema = z.strictObject({
  killSwitch: z.boolean().default(false),
  stickyBy: z
    .string()
    .regex(/^(subject|token|header:[A-Za-z0-9-]+)$/, { error: 'must be subject, token or header:<name>' })
    .default('subject'),
  /** honour the override header, only with the operator's secret (ROLLOUT_OVERRIDE_SECRET) */
  allowOverride: z.boolean().default(false),
  salt: z.string().max(200).default('v2proxy'),
  routes: z.array(RouteSchema).max(1000).default([]),
  guard: GuardSchema.optional(),
  approvals: ApprovalsSchema.optional(),
});

export type RolloutConfig = z.output<typeof RolloutSchema>;
export type RolloutRoute = RolloutConfig['routes'][number];
export type GuardConfig = z.output<typeof GuardSchema>;
export type RolloutStep = z.output<typeof StepSchema>;
export type AnalysisConfig = z.output<typeof AnalysisSchema>;
export type ApprovalsConfig = z.output<typeof ApprovalsSchema>;

/** The guard of a file without a `guard` section. */
export const DEFAULT_GUARD: GuardConfig = GuardSchema.parse({});

/** The analysis of a route whose file gives `steps` and no `analysis`. */
export const DEFAULT_ANALYSIS: AnalysisConfig = AnalysisSchema.parse({});

/** Every v2 request translated, no override: what runs without a rollout file. */
export const NO_ROLLOUT: RolloutConfig = RolloutSchema.parse({ allowOverride: false });

export type RolloutParse = { ok: true; config: RolloutConfig } | { ok: false; error: string };

/** The resources a rollout may name, each with the operations it has. */
export type KnownRoutes = ReadonlyMap<string, readonly Operation[]>;

const pathText = (path: readonly PropertyKey[]) =>
  path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('') || '(top level)';

// a key shown in a refusal looks like a key of the file's own (a misspelt one); anything else is
// content of whatever file was saved there, and is only counted
const KEY_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const SHOWN_KEYS = 10;

/** A schema's refusals, each by its path; an unknown key by its own path when it looks like a key, else only counted. */
function issueTexts(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'unrecognized_keys') return [`${pathText(issue.path)}: ${issue.message}`];
    const named = issue.keys.filter((k) => KEY_NAME.test(k));
    const shown = named.slice(0, SHOWN_KEYS).map((k) => `${pathText([...issue.path, k])}: not a key of the rollout file`);
    const rest = issue.keys.length - shown.length;
    if (rest === 0) return shown;
    return [...shown, `${pathText(issue.path)}: ${rest}${shown.length > 0 ? ' more' : ''} unknown key${rest === 1 ? '' : 's'}`];
  });
}

/** A YAML refusal by its kind and place, never the line it quotes. */
function yamlProblem(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown; linePos?: { line: number; col: number }[] };
  const where = e.linePos?.[0] ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '';
  return `${typeof e.code === 'string' ? e.code : `unreadable (${String(e.name)})`}${where}`;
}

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
      problems.push(`routes[${i}].resource: not a known resource; known: ${[...known.keys()].sort().join(', ')}`);
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

/** A route named twice (the same resource and operations, in any order): a request matches the first, the other would never serve, and they would share one progressive state. */
function repeatedRoutes(config: RolloutConfig): string[] {
  const seen = new Map<string, number>();
  return config.routes.flatMap((route, i) => {
    const key = `${route.resource}|${[...route.operations].sort().join(',')}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, i);
      return [];
    }
    return [`routes[${i}]: the same route as routes[${first}] (${route.resource} [${route.operations.join(', ')}]): give each route once`];
  });
}

/**
 * A progressive route names its steps instead of a fixed share, analysis only goes with steps, and
 * its last step serves everyone natively (reaching it is what `promoted` means). Writes are verified
 * only on a route that has some.
 */
function scheduleProblems(raw: Record<string, unknown>, config: RolloutConfig): string[] {
  const routes = Array.isArray(raw.routes) ? (raw.routes as Record<string, unknown>[]) : [];
  return routes.flatMap((route, i) => {
    if (route.steps !== undefined && route.native !== undefined) return [`routes[${i}]: give either native (a fixed share) or steps, not both`];
    if (route.analysis !== undefined && route.steps === undefined) return [`routes[${i}].analysis: only a route with steps is analysed`];
    const verified = config.routes[i];
    if (verified && verified.verifyWrites > 0 && !verified.operations.some((op) => WRITE_OPERATIONS.includes(op)))
      return [`routes[${i}].verifyWrites: the route has no writes to verify (its operations: ${verified.operations.join(', ')})`];
    if (verified?.analysis?.maxWriteDiffRate !== undefined && verified.verifyWrites === 0)
      return [`routes[${i}].analysis.maxWriteDiffRate: judges verified writes; give the route a verifyWrites share`];
    const steps = config.routes[i]?.steps;
    const last = steps?.at(-1);
    if (steps && last && last.native !== 100)
      return [`routes[${i}].steps[${steps.length - 1}].native: the last step must be native: 100 (reaching it promotes the route); it is ${last.native}`];
    return [];
  });
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
    return { ok: false, error: `not YAML or JSON: ${yamlProblem(err)}` };
  }
  try {
    const result = RolloutSchema.safeParse(raw ?? {});
    if (!result.success) {
      return { ok: false, error: issueTexts(result.error.issues).join('; ') };
    }
    const unknown = [
      ...scheduleProblems((raw ?? {}) as Record<string, unknown>, result.data),
      ...repeatedRoutes(result.data),
      ...(known ? unknownRoutes(result.data, raw, known) : []),
    ];
    if (unknown.length > 0) return { ok: false, error: unknown.join('; ') };
    return { ok: true, config: result.data };
  } catch (err) {
    // a check that throws on a value it was not written for refuses the file; it never stops the process
    return { ok: false, error: `cannot be read: ${(err as Error).name}` };
  }
}
