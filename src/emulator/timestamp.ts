// protojson writes 0, 3, 6 or 9 fractional digits, whichever is shortest without loss; the emulator
// stores milliseconds, so it writes 0 or 3 — the proxy has to normalise that to exactly 3.
export function formatTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp to epoch milliseconds, or undefined when it is not one. */
export function parseTimestamp(value: string): number | undefined {
  if (!RFC3339.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** google.protobuf.Duration JSON form: seconds with an optional fraction and an `s` suffix. */
export function parseDurationMs(value: string): number | undefined {
  const m = /^(-?\d+)(\.\d{1,9})?s$/.exec(value);
  if (!m) return undefined;
  return Math.round(Number(`${m[1]}${m[2] ?? ''}`) * 1000);
}
