import { invalid } from './grpc-status.js';
import type { Json } from './store.js';
import { parseTimestamp } from './timestamp.js';

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a v1 request body the way protojson decodes it: json or proto field names, absent fields
 * as zero values, a value of the wrong type as INVALID_ARGUMENT, unknown fields ignored.
 */
export class Body {
  constructor(readonly json: Json) {}

  static of(value: unknown): Body {
    if (!isPlainObject(value)) throw invalid('request body must be a JSON object');
    return new Body(value);
  }

  raw(name: string): unknown {
    const v = this.json[name];
    return v === undefined ? this.json[snake(name)] : v;
  }

  has(name: string): boolean {
    const v = this.raw(name);
    return v !== undefined && v !== null;
  }

  string(name: string): string {
    const v = this.raw(name);
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw invalid(`invalid value for string field ${name}: ${JSON.stringify(v)}`);
    return v;
  }

  bool(name: string): boolean {
    const v = this.raw(name);
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') throw invalid(`invalid value for bool field ${name}: ${JSON.stringify(v)}`);
    return v;
  }

  strings(name: string): string[] {
    const v = this.raw(name);
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) {
      throw invalid(`invalid value for repeated string field ${name}`);
    }
    return [...(v as string[])];
  }

  object(name: string): Json | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null) return undefined;
    if (!isPlainObject(v)) throw invalid(`invalid value for message field ${name}`);
    return v;
  }

  int32Map(name: string): Record<string, number> {
    const v = this.object(name) ?? {};
    const out: Record<string, number> = {};
    for (const [k, n] of Object.entries(v)) {
      const num = typeof n === 'string' && /^-?\d+$/.test(n) ? Number(n) : n;
      if (typeof num !== 'number' || !Number.isInteger(num) || Math.abs(num) > 2 ** 31) {
        throw invalid(`invalid value for map<string,int32> field ${name}.${k}`);
      }
      out[k] = num;
    }
    return out;
  }

  timestamp(name: string): number | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null || v === '') return undefined;
    const ms = typeof v === 'string' ? parseTimestamp(v) : undefined;
    if (ms === undefined) throw invalid(`invalid value for timestamp field ${name}: ${JSON.stringify(v)}`);
    return ms;
  }

  /** an enum by value name or number; `values` maps each name to its number */
  enumValue(name: string, values: Readonly<Record<string, number>>, fallback: string): string {
    const v = this.raw(name);
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'string' && Object.hasOwn(values, v)) return v;
    const byNumber = Object.entries(values).find(([, n]) => n === v);
    if (byNumber) return byNumber[0];
    throw invalid(`invalid value for enum field ${name}: ${JSON.stringify(v)}`);
  }
}

export const NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;

export function requireName(name: string): string {
  if (!NAME_PATTERN.test(name)) throw invalid('name must match "^[a-z0-9 ._-]{1,}$"');
  return name;
}
