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

/**
 * Parses a rollout file's text (YAML, of which JSON is a subset): a result, never a throw, with the
 * first problem named by its path (`routes[0].native: must be at most 100`).
 */
export function parseRollout(text: string): RolloutParse {
  let raw: unknown;
  try {
    raw = parseYaml(text, { maxAliasCount: 100 });
  } catch (err) {
    return { ok: false, error: `not YAML or JSON: ${(err as Error).message.split('\n', 1)[0]}` };
  }
  const result = RolloutSchema.safeParse(raw ?? {});
  if (!result.success) {
    const issue = result.error.issues[0];
    const at = (issue?.path ?? []).map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('');
    return { ok: false, error: `${at || '(top level)'}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, config: result.data };
}
