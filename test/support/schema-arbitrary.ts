import fc from 'fast-check';

/** A JSON Schema (the subset an OpenAPI 3.1 document of proto JSON uses). */
export type JsonSchema = Record<string, any>;

/** How a generated value may break its schema, and the values that do. */
export interface SchemaArbitraryOptions {
  /** resolves `#/components/schemas/<name>` */
  components: Record<string, JsonSchema>;
  /** leave out `readOnly` properties: a request body never sets them */
  request?: boolean;
  /** nesting below which optional properties are left out (recursive messages end) */
  maxDepth?: number;
}

const resolve = (schema: JsonSchema, o: SchemaArbitraryOptions): JsonSchema => {
  if (typeof schema.$ref === 'string') return resolve(o.components[schema.$ref.replace('#/components/schemas/', '')] ?? {}, o);
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) return { ...resolve(schema.allOf[0], o), ...schema, allOf: undefined };
  return schema;
};

const DATE_TIME = fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString());

/** Values valid against `schema`: every generated value passes a validator of it. */
export function arbitraryOf(schema: JsonSchema, o: SchemaArbitraryOptions, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, o);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'string':
      if (s.format === 'date-time') return DATE_TIME;
      if (s.format === 'int64') return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String);
      if (s.contentEncoding === 'base64') return fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b).toString('base64'));
      if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern));
      return fc.string({ maxLength: 24, unit: 'grapheme' });
    case 'integer':
      return fc.integer({ min: s.minimum ?? -(2 ** 31), max: s.maximum ?? 2 ** 31 - 1 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > (o.maxDepth ?? 3) ? fc.constant([]) : fc.array(arbitraryOf(s.items ?? {}, o, depth + 1), { maxLength: 3 });
    case 'object': {
      const properties = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>).filter(([, p]) => !(o.request && resolve(p, o).readOnly));
      if (properties.length === 0 && s.additionalProperties && typeof s.additionalProperties === 'object')
        return depth > (o.maxDepth ?? 3)
          ? fc.constant({})
          : fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), arbitraryOf(s.additionalProperties, o, depth + 1), { maxKeys: 2 });
      if (depth > (o.maxDepth ?? 3)) return fc.constant({});
      const required: string[] = s.required ?? [];
      return fc.record(Object.fromEntries(properties.map(([name, p]) => [name, arbitraryOf(p, o, depth + 1)])), {
        requiredKeys: required.filter((r) => properties.some(([name]) => name === r)),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/**
 * Values that break `schema` at its top: another JSON type than the one it names, or (for a
 * pattern, bounds or an enum) a value of its type outside them. Undefined when no value breaks it.
 */
export function invalidOf(schema: JsonSchema, o: SchemaArbitraryOptions): fc.Arbitrary<unknown> | undefined {
  const s = resolve(schema, o);
  const other: Record<string, fc.Arbitrary<unknown>> = {
    string: fc.oneof(fc.integer(), fc.boolean(), fc.constant({}), fc.constant([1])),
    integer: fc.oneof(fc.constant('many'), fc.constant(1.5), fc.boolean()),
    number: fc.oneof(fc.constant('many'), fc.boolean(), fc.constant({})),
    boolean: fc.oneof(fc.constant('yes'), fc.integer({ min: 2 }), fc.constant({})),
    array: fc.oneof(fc.constant('many'), fc.integer(), fc.constant({ a: 1 })),
    object: fc.oneof(fc.constant('an object'), fc.integer(), fc.constant([1, 2])),
  };
  return s.type ? other[s.type] : undefined;
}
