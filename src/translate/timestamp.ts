const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/** v2 timestamps leave with exactly three fractional digits and `Z`; anything else is left as it came. */
export function normalizeTimestamp(value: unknown): unknown {
  if (typeof value !== 'string' || !RFC3339.test(value)) return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

export function isTimestamp(value: unknown): boolean {
  return typeof value === 'string' && RFC3339.test(value) && !Number.isNaN(Date.parse(value));
}
