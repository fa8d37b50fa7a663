/** Counts v1 calls by `METHOD /path` (no query), so tests and benchmarks can see what the proxy sent. */
export class RequestStats {
  private counts = new Map<string, number>();
  private total = 0;

  record(method: string, url: string): void {
    const cut = url.indexOf('?');
    const key = `${method} ${cut < 0 ? url : url.slice(0, cut)}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.total += 1;
  }

  snapshot(): { total: number; requests: Record<string, number> } {
    return { total: this.total, requests: Object.fromEntries(this.counts) };
  }

  reset(): void {
    this.counts = new Map();
    this.total = 0;
  }
}
