/** An interval's bounds; `high` null when it has none (a quantile past the last observation). */
export interface Bounds {
  low: number;
  high: number | null;
}

/**
 * Wilson's score interval for a proportion of `events` in `count` at normal quantile `z`: it keeps
 * its coverage for small counts and for no event at all (0 of 1,000 still has an upper bound), which
 * a Wald interval does not (its width is 0 there).
 */
export function wilson(events: number, count: number, z: number): { low: number; high: number } {
  if (count <= 0) return { low: 0, high: 1 };
  const p = events / count;
  const z2 = z * z;
  const scale = 1 + z2 / count;
  const centre = (p + z2 / (2 * count)) / scale;
  const half = (z / scale) * Math.sqrt((p * (1 - p)) / count + z2 / (4 * count * count));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Newcombe's hybrid score interval for the difference of two proportions (a − b), built from each
 * side's Wilson interval: good coverage at small counts and when one side has no event, the case
 * (errors against a zero baseline) where rank tests and Wald intervals fail.
 */
export function newcombe(a: { events: number; count: number }, b: { events: number; count: number }, z: number): { low: number; high: number } {
  const pa = a.events / a.count;
  const pb = b.events / b.count;
  const wa = wilson(a.events, a.count, z);
  const wb = wilson(b.events, b.count, z);
  const d = pa - pb;
  return {
    low: Math.max(-1, d - Math.sqrt((pa - wa.low) ** 2 + (wb.high - pb) ** 2)),
    high: Math.min(1, d + Math.sqrt((wa.high - pa) ** 2 + (pb - wb.low) ** 2)),
  };
}
