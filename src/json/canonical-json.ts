/**
 * A JSON value's text with keys sorted and proto3 default values (null, '', 0, false, [], {})
 * left out: the same request reads the same whether it came as REST JSON (which may spell the
 * defaults out) or as a proto message (whose JSON leaves them out).
 */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > 64) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const parts: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (isDefault(v)) continue;
      parts.push(`${JSON.stringify(key)}:${canonicalJson(v, depth + 1)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function isDefault(v: unknown): boolean {
  if (v === null || v === undefined || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}
