import { camelCase } from '../translate/json-path.js';

export type RawQuery = Record<string, string | string[] | undefined>;

/** Every value of a query parameter, under its proto (snake) or json (camel) name, as the gateway reads it. */
export function paramValues(query: RawQuery, name: string): string[] {
  const out: string[] = [];
  for (const key of new Set([name, camelCase(name)])) {
    const v = query[key];
    if (v !== undefined) out.push(...(Array.isArray(v) ? v : [v]));
  }
  return out;
}
