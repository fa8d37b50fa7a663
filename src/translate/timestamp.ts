const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

const twoDigits = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + (text.charCodeAt(at + 1) - 48);

/**
 * A UTC time (`…T…Z`, as v1 sends them) whose fields are plainly in range, given three fractional
 * digits as Date's toISOString would (truncated, not rounded), without the Date round trip that costs
 * most of a translated Get's timestamp work. Undefined for anything else (an offset, a day past the
 * 28th, 24:00): those take the round trip, which rolls them over as Date does.
 */
function plainUtc(text: string): string | undefined {
  if (text.charCodeAt(10) !== 84 || text.charCodeAt(text.length - 1) !== 90) return undefined; // 'T', 'Z'
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (month < 1 || month > 12 || day < 1 || day > 28 || twoDigits(text, 11) > 23 || twoDigits(text, 14) > 59 || twoDigits(text, 17) > 59) return undefined;
  if (text.length === 24) return text; // already `.mmmZ`
  return `${text.slice(0, 19)}.${`${text.slice(20, -1)}000`.slice(0, 3)}Z`;
}

/** v2 timestamps leave with exactly three fractional digits and `Z`; anything else is left as it came. */
export function normalizeTimestamp(value: unknown): unknown {
  if (typeof value !== 'string' || !RFC3339.test(value)) return value;
  const plain = plainUtc(value);
  if (plain !== undefined) return plain;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

export function isTimestamp(value: unknown): boolean {
  return typeof value === 'string' && RFC3339.test(value) && !Number.isNaN(Date.parse(value));
}
