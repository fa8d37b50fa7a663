import type { Bounds } from './rate-interval.js';

/** One bucket of a latency histogram: the values in it lie in (low, high]. */
export interface Bucket {
  low: number;
  high: number;
  count: number;
}

/** The bucket the `rank`-th smallest value (1-based) falls in. */
function bucketAt(buckets: readonly Bucket[], rank: number): Bucket {
  let seen = 0;
  for (const b of buckets) {
    seen += b.count;
    if (seen >= rank) return b;
  }
  return buckets.at(-1) as Bucket;
}

export const countOf = (buckets: readonly Bucket[]) => buckets.reduce((sum, b) => sum + b.count, 0);

/** The `q` quantile of a histogram: the upper bound of the bucket it falls in (null when empty). */
export function quantileOf(buckets: readonly Bucket[], q: number): number | null {
  const n = countOf(buckets);
  return n === 0 ? null : bucketAt(buckets, Math.max(1, Math.ceil(q * n))).high;
}

/**
 * A distribution-free interval for the `q` quantile of what a histogram holds: the number of values
 * below the true quantile is binomial (n, q), so the order statistics of ranks nq ∓ z·√(nq(1−q)) hold
 * it between them; each is read from its bucket's outer edge, which only widens the interval. With
 * too few values for the upper rank (a p99 of 200 requests) the interval has no upper bound.
 */
export function quantileInterval(buckets: readonly Bucket[], q: number, z: number): Bounds {
  const n = countOf(buckets);
  if (n === 0) return { low: 0, high: null };
  const spread = z * Math.sqrt(n * q * (1 - q));
  const lowRank = Math.floor(n * q - spread);
  const highRank = Math.ceil(n * q + spread) + 1;
  return { low: lowRank < 1 ? 0 : bucketAt(buckets, lowRank).low, high: highRank > n ? null : bucketAt(buckets, highRank).high };
}
