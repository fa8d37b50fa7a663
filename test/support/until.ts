/**
 * Polls `read` until `check` holds, bounded by `ms` (what the fleet, the analysis or a page does
 * by itself comes within a few of its ticks); past that, fails with what it last saw.
 */
export async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, ms = 8_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 600)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
