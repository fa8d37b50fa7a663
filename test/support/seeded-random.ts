/** A seeded uniform generator (mulberry32): the same runs every time, for simulations in tests. */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** How many of `n` trials succeed at chance `p`. */
export function binomial(random: () => number, n: number, p: number): number {
  let k = 0;
  for (let i = 0; i < n; i += 1) if (random() < p) k += 1;
  return k;
}
