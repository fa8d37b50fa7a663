import { normalQuantile } from './normal-quantile.js';

/** The level an interval is built at: its α, its confidence (1 − α) and the two-sided normal quantile. */
export interface Level {
  alpha: number;
  confidence: number;
  z: number;
}

/** One look at a fixed level (a report read once, a replay's end). */
export function fixedLevel(alpha: number): Level {
  return { alpha, confidence: 1 - alpha, z: normalQuantile(1 - alpha / 2) };
}

/**
 * The level of look `k` (1, 2, …) of a sequence that may go on for ever, α spent over the looks:
 * look k gets α / (k (k + 1)). Those shares add up to α however many looks there are (1/2 + 1/6 +
 * 1/12 + … = 1), so by the union bound the chance that any interval of the sequence misses the
 * true value, and with it the chance of any false fail, stays at most α.
 */
export function lookLevel(alpha: number, k: number): Level {
  const look = Math.max(1, Math.floor(k));
  return fixedLevel(alpha / (look * (look + 1)));
}
