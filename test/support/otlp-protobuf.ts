import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';

/**
 * Reads protobuf with no schema: each message as a list of `[field number, value]` in wire order,
 * a length-delimited value kept as bytes (read as a message where the reader knows it is one). Two
 * encodings of the same content read alike once `canonical` has sorted and pruned them.
 */
export type Field = [number, bigint | number | Uint8Array];

function asMessage(bytes: Uint8Array): Field[] | undefined {
  try {
    const fields = fieldsOf(bytes);
    return fields.length > 0 ? fields : undefined;
  } catch {
    return undefined;
  }
}

export function fieldsOf(bytes: Uint8Array): Field[] {
  const r = new BinaryReader(bytes);
  const out: Field[] = [];
  while (r.pos < r.len) {
    const [no, type] = r.tag();
    if (no < 1) throw new Error('field 0');
    if (type === WireType.Varint) out.push([no, BigInt(r.uint64())]);
    else if (type === WireType.Bit64) out.push([no, BigInt(r.fixed64())]);
    else if (type === WireType.Bit32) out.push([no, r.fixed32()]);
    else if (type === WireType.LengthDelimited) {
      out.push([no, r.bytes()]);
    } else throw new Error(`wire type ${type}`);
  }
  return out;
}

/**
 * Fields as comparable JSON: sorted by number (a repeated field keeps its order), fields holding a
 * default (0, empty) left out as proto3 leaves them out, bytes that parse as a message read as one,
 * a message of defaults only left out too.
 */
export function canonical(fields: Field[]): unknown {
  const kept = fields.filter(([, v]) => !(v === 0n || v === 0 || (v instanceof Uint8Array && v.length === 0)));
  const value = (v: Field[1]): unknown => {
    if (!(v instanceof Uint8Array)) return String(v);
    const inner = asMessage(v);
    return inner ? canonical(inner) : Buffer.from(v).toString('hex');
  };
  return (
    kept
      .map(([no, v], i) => [no, i, v] as const)
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .map(([no, , v]) => [no, value(v)] as const)
      // a message holding only defaults is as good as none (an unset status)
      .filter(([, v]) => !(Array.isArray(v) && v.length === 0))
  );
}

type Json = Record<string, unknown>;
const all = (fields: Field[], no: number) => fields.filter(([n]) => n === no).map(([, v]) => v);
const one = (fields: Field[], no: number) => all(fields, no)[0];
const hex = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : undefined);
const text = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : undefined);
const msg = (v: unknown): Field[] => (v instanceof Uint8Array ? fieldsOf(v) : []);

function anyValue(f: Field[]): Json {
  const [no, v] = f[0] ?? [0, 0n];
  if (no === 1) return { stringValue: text(v) };
  if (no === 2) return { boolValue: v === 1n };
  if (no === 3) return { intValue: Number(BigInt.asIntN(64, v as bigint)) };
  if (no === 4) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(v as bigint);
    return { doubleValue: b.readDoubleLE() };
  }
  if (no === 5) return { arrayValue: { values: all(msg(v), 1).map((x) => anyValue(msg(x))) } };
  return {};
}

const keyValues = (fields: Field[], no: number) => all(fields, no).map((kv) => ({ key: text(one(msg(kv), 1)), value: anyValue(msg(one(msg(kv), 2))) }));

/** An OTLP protobuf trace export read into the shape of its JSON form (ids in hex), the fields the tests look at. */
export function otlpTracesFromProtobuf(bytes: Uint8Array): { resourceSpans: Json[] } {
  const request = fieldsOf(bytes);
  return {
    resourceSpans: all(request, 1).map((rs) => ({
      resource: { attributes: keyValues(msg(one(msg(rs), 1)), 1) },
      scopeSpans: all(msg(rs), 2).map((ss) => ({
        scope: { name: text(one(msg(one(msg(ss), 1)), 1)), version: text(one(msg(one(msg(ss), 1)), 2)) },
        spans: all(msg(ss), 2).map((sv) => {
          const s = msg(sv);
          const status = msg(one(s, 15));
          return {
            traceId: hex(one(s, 1)),
            spanId: hex(one(s, 2)),
            parentSpanId: hex(one(s, 4)),
            name: text(one(s, 5)),
            kind: Number(one(s, 6) ?? 0n),
            attributes: keyValues(s, 9),
            links: all(s, 13).map((l) => ({ traceId: hex(one(msg(l), 1)), spanId: hex(one(msg(l), 2)) })),
            status: { code: Number(one(status, 3) ?? 0n) },
          };
        }),
      })),
    })),
  };
}
