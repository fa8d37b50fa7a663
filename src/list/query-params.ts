import { camelCase } from '../json/json-path.js';

export type RawQuery = Record<string, string | string[] | undefined>;

// Parameter names come from code and mappings (a fixed set), so their spellings are worked out once.
const spellings = new Map<string, readonly string[]>();

function spellingsOf(name: string): readonly string[] {
  let known = spellings.get(name);
  if (!known) {
    known = [...new Set([name, camelCase(name)])];
    spellings.set(name, known);
  }
  return known;
}

/** Every value of a query parameter, under its proto (snake) or json (camel) name, as the gateway reads it. */
export function paramValues(query: RawQuery, name: string): string[] {
  const out: string[] = [];
  for (const key of spellingsOf(name)) {
    const v = query[key];
    if (v !== undefined) out.push(...(Array.isArray(v) ? v : [v]));
  }
  return out;
}
