// How the benches summarize repeated measurements: quantiles, and a range over rounds.

/** The value at quantile `p` (0..1) of `xs`. */
export function quantile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
}

export const median = (xs: readonly number[]): number => quantile(xs, 0.5);

/** `min–max` of `xs`, with `digits` decimals. */
export const range = (xs: readonly number[], digits = 2): string => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
