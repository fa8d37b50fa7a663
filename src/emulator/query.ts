import { invalid } from './grpc-status.js';

type RawQuery = Record<string, string | string[] | undefined>;

function camel(name: string): string {
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** v1 query parameters, read as grpc-gateway does: proto (snake) or json (camel) names, repeated keys. */
export class Query {
  // filters are read once per item; the values of a name never change within a request
  private readonly seen = new Map<string, string[]>();

  constructor(private readonly raw: RawQuery) {}

  all(name: string): string[] {
    const known = this.seen.get(name);
    if (known) return known;
    const out: string[] = [];
    for (const key of new Set([name, camel(name)])) {
      const v = this.raw[key];
      if (v === undefined) continue;
      out.push(...(Array.isArray(v) ? v : [v]));
    }
    this.seen.set(name, out);
    return out;
  }

  one(name: string): string | undefined {
    const values = this.all(name);
    return values.length === 0 ? undefined : values[values.length - 1];
  }

  bool(name: string): boolean | undefined {
    const v = this.one(name);
    if (v === undefined || v === '') return undefined;
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    throw invalid(`invalid value for bool field ${name}: "${v}"`);
  }

  int(name: string): number | undefined {
    const v = this.one(name);
    if (v === undefined || v === '') return undefined;
    if (!/^-?\d+$/.test(v)) throw invalid(`invalid value for integer field ${name}: "${v}"`);
    return Number(v);
  }
}
