// A property-based conformance run of a REST surface against its OpenAPI 3.1 document, after
// Schemathesis's checks: no 5xx, every status documented, every body valid against its schema,
// schema-breaking input refused with a 4xx, a created resource retrievable and a deleted one gone.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { arbitraryOf, invalidOf, type JsonSchema, type SchemaArbitraryOptions } from './schema-arbitrary.js';

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: JsonSchema;
}

interface OperationObject {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: { 'application/json'?: { schema: JsonSchema } } }>;
}

export interface OpenApi {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema> };
}

export interface Operation {
  method: string;
  template: string;
  op: OperationObject;
  /** list, get, create, update, delete (or another verb the document names) */
  kind: string;
  /** the collection the path names (`groups`), '' for paths of no collection */
  resource: string;
}

/** One request a case sends: `breaks` says how it breaks the contract, when it does. */
export interface CaseRequest {
  operation: string;
  method: string;
  path: string;
  query: [string, string][];
  body?: { json: unknown } | { raw: string; type: string } | undefined;
  anonymous?: boolean;
  breaks?: string | undefined;
}

/** Every operation of the document, in its order. */
export function operationsOf(doc: OpenApi): Operation[] {
  const out: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods)) {
      const kind = op.operationId.replace(/^create_root_/, 'create_').split('_')[0] as string;
      out.push({ method: method.toUpperCase(), template, op, kind, resource: template.split('/')[3] ?? '' });
    }
  return out;
}

/**
 * Uids the run knows exist, per collection: the seeded ones, then those created during the run
 * (and not since deleted). Writes that change or delete pick only from what the run created, so a
 * case cannot take the caller's own access away.
 */
export class UidPool {
  private readonly seeded = new Map<string, string[]>();
  private readonly created = new Map<string, string[]>();

  /** A pool seeded with what each List of the document answers `token` on `baseUrl` (one page of 200). */
  static async listed(baseUrl: string, token: string, operations: readonly Operation[]): Promise<UidPool> {
    const pool = new UidPool();
    for (const o of operations.filter((x) => x.kind === 'list')) {
      const listed = await send(baseUrl, token, { operation: o.op.operationId, method: 'GET', path: o.template, query: [['page_size', '200']] });
      const items = Object.values(listed.body as object).find(Array.isArray) as { uid: string }[];
      pool.seed(
        o.resource,
        items.map((i) => i.uid),
      );
    }
    return pool;
  }

  seed(resource: string, uids: readonly string[]): void {
    this.seeded.set(resource, [...uids]);
  }
  add(resource: string, uid: string): void {
    this.created.set(resource, [...(this.created.get(resource) ?? []), uid]);
  }
  remove(resource: string, uid: string): void {
    this.created.set(
      resource,
      (this.created.get(resource) ?? []).filter((u) => u !== uid),
    );
  }
  pick(resource: string, i: number, ownOnly: boolean): string | undefined {
    const all = [...(ownOnly ? [] : (this.seeded.get(resource) ?? [])), ...(this.created.get(resource) ?? [])];
    return all.length === 0 ? undefined : all[i % all.length];
  }
  createdCount(resource: string): number {
    return this.created.get(resource)?.length ?? 0;
  }
}

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
const WRITES = new Set(['update', 'delete']);

/**
 * Requests for one operation: most valid against the document (path uids from the pool or from the
 * parameter's pattern, optional parameters sometimes given, a body from its schema), some breaking
 * it in one named way.
 */
export function requestsOf(doc: OpenApi, o: Operation, pool: UidPool): fc.Arbitrary<CaseRequest> {
  const { valid, broken } = casesOf(doc, o, pool);
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: broken });
}

/** The operation's requests that keep its contract, and those that break it in one named way. */
export function casesOf(doc: OpenApi, o: Operation, pool: UidPool): { valid: fc.Arbitrary<CaseRequest>; broken: fc.Arbitrary<CaseRequest> } {
  const options: SchemaArbitraryOptions = { components: doc.components.schemas, request: true };
  const params = o.op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const jsonBody = o.op.requestBody?.content['application/json']?.schema;
  const formBody = o.op.requestBody?.content['application/x-www-form-urlencoded']?.schema;

  const pathValue = (p: Parameter) => {
    // a create's path names the parent group it makes the resource under
    const parent = o.kind === 'create';
    const known = fc.nat().map((i) => pool.pick(parent ? 'groups' : o.resource, i, !parent && WRITES.has(o.kind)));
    return fc
      .oneof({ weight: 4, arbitrary: known }, { weight: 1, arbitrary: arbitraryOf(p.schema, options) as fc.Arbitrary<string> })
      .map((v) => v ?? '0'.repeat(40));
  };
  // uid filters name a group (uidp.ids the listed resources): mostly known ones, so lists are not all empty
  const queryValue = (p: Parameter) => {
    const pooled = p.name === 'uidp.ids' ? o.resource : p.name.startsWith('uidp.') ? 'groups' : undefined;
    const values = pooled
      ? fc.oneof(
          fc.nat().map((i) => pool.pick(pooled, i, false)),
          arbitraryOf(p.schema, options),
        )
      : arbitraryOf(p.schema, options);
    return values.map((v) => (v === undefined ? [] : [v].flat().map((x): [string, string] => [p.name, asText(x)])));
  };

  const valid = fc
    .record({
      path: fc.tuple(...pathParams.map(pathValue)),
      query: fc.tuple(...queryParams.map((p) => fc.option(queryValue(p), { freq: 2, nil: [] }))),
      body: jsonBody ? arbitraryOf(jsonBody, options) : formBody ? arbitraryOf(formBody, options) : fc.constant(undefined),
    })
    .map(({ path, query, body }): CaseRequest => {
      let url = o.template;
      pathParams.forEach((p, i) => {
        url = url.replace(`{${p.name}}`, path[i] as string);
      });
      const form =
        formBody && body
          ? new URLSearchParams(Object.entries(body as object).flatMap(([k, v]) => [v].flat().map((x): [string, string] => [k, asText(x)])))
          : undefined;
      return {
        operation: o.op.operationId,
        method: o.method,
        path: url,
        query: query.flat(),
        body: jsonBody ? { json: body } : form ? { raw: form.toString(), type: 'application/x-www-form-urlencoded' } : undefined,
      };
    });

  // one way to break the contract per case, from those the operation has
  const breaks: fc.Arbitrary<(r: CaseRequest) => CaseRequest>[] = [fc.constant((r: CaseRequest) => ({ ...r, anonymous: true, breaks: 'no token' }))];
  for (const p of pathParams)
    breaks.push(
      fc.stringMatching(/^[g-z][0-9a-z-]{0,15}$/).map((bad) => (r: CaseRequest) => {
        const url = o.template.replace(`{${p.name}}`, bad).replace(/\{[a-z]+\}/g, '0'.repeat(40));
        return { ...r, path: url, breaks: `${p.name} does not match its pattern` };
      }),
    );
  for (const p of queryParams) {
    const bad =
      p.schema.type === 'integer'
        ? fc.constantFrom('many', '-1', '1.5', '1e3', '99999999999')
        : typeof p.schema.pattern === 'string'
          ? fc.constantFrom('nope', 'uid sideways', 'uid,,name', ',')
          : undefined;
    if (bad)
      breaks.push(bad.map((v) => (r: CaseRequest) => ({ ...r, query: [...r.query.filter(([n]) => n !== p.name), [p.name, v]], breaks: `${p.name}=${v}` })));
  }
  if (jsonBody) {
    breaks.push(
      fc
        .constantFrom('{"name":', '[1,2', 'not json')
        .map((raw) => (r: CaseRequest) => ({ ...r, body: { raw, type: 'application/json' }, breaks: 'a body that is not JSON' })),
    );
    const top = invalidOf(jsonBody, options);
    if (top) breaks.push(top.map((v) => (r: CaseRequest) => ({ ...r, body: { json: v }, breaks: 'a body that is not an object' })));
    // a create's body narrows the resource's schema (`{allOf: [{$ref}], required}`): its fields are the resource's
    const target = jsonBody.$ref ?? (jsonBody.allOf as JsonSchema[] | undefined)?.[0]?.$ref;
    const resolved = target ? doc.components.schemas[String(target).replace('#/components/schemas/', '')] : jsonBody;
    for (const [name, schema] of Object.entries((resolved?.properties ?? {}) as Record<string, JsonSchema>)) {
      if (schema.readOnly || schema.allOf) continue;
      const wrong = wrongValueOf(schema, doc);
      if (wrong)
        breaks.push(
          wrong.map((v) => (r: CaseRequest) => ({
            ...r,
            body: { json: { ...((r.body as { json: object }).json ?? {}), [name]: v } },
            breaks: `body field ${name} of the wrong type`,
          })),
        );
    }
  }
  const broken = fc.tuple(valid, fc.oneof(...breaks)).map(([r, brk]) => brk(r));
  return { valid, broken };
}

/** A value proto JSON cannot read into a field of this schema (a number is a valid enum or int64, so it is not offered there). */
function wrongValueOf(schema: JsonSchema, doc: OpenApi): fc.Arbitrary<unknown> | undefined {
  const s = schema.$ref ? (doc.components.schemas[String(schema.$ref).replace('#/components/schemas/', '')] ?? {}) : schema;
  if (Array.isArray(s.enum)) return fc.constantFrom('NOT_A_VALUE', true, { a: 1 });
  if (s.type === 'string' && s.format === 'date-time') return fc.constantFrom('yesterday', 12, true);
  if (s.type === 'string' && s.format === 'int64') return fc.constantFrom('many', true, { a: 1 });
  if (s.type === 'string') return fc.constantFrom(12, true, { a: 1 }, [1]);
  if (s.type === 'boolean') return fc.constantFrom('yes', 2, { a: 1 });
  if (s.type === 'integer') return fc.constantFrom('many', 1.5, true);
  if (s.type === 'array') return fc.constantFrom('many', 3, { a: 1 });
  return undefined;
}

/** The request as a curl command (the token as a variable: a token is never printed). */
export function curlOf(baseUrl: string, r: CaseRequest): string {
  const q = r.query.length ? `?${new URLSearchParams(r.query).toString()}` : '';
  const parts = [`curl -sS -X ${r.method} '${baseUrl}${r.path}${q}'`];
  if (!r.anonymous) parts.push(`-H "Authorization: Bearer $TOKEN"`);
  if (r.body) {
    const [text, type] = 'raw' in r.body ? [r.body.raw, r.body.type] : [JSON.stringify(r.body.json), 'application/json'];
    parts.push(`-H 'Content-Type: ${type}'`, `--data-raw '${String(text).replaceAll("'", `'\\''`)}'`);
  }
  return parts.join(' ');
}

export interface CaseAnswer {
  status: number;
  contentType: string | null;
  body: unknown;
}

/** Sends a case. */
export async function send(baseUrl: string, token: string, r: CaseRequest): Promise<CaseAnswer> {
  const headers: Record<string, string> = r.anonymous ? {} : { authorization: `Bearer ${token}` };
  let body: string | undefined;
  if (r.body) {
    if ('raw' in r.body) {
      body = r.body.raw;
      headers['content-type'] = r.body.type;
    } else if (r.body.json !== undefined) {
      body = JSON.stringify(r.body.json);
      headers['content-type'] = 'application/json';
    }
  }
  const q = r.query.length ? `?${new URLSearchParams(r.query).toString()}` : '';
  const res = await fetch(`${baseUrl}${r.path}${q}`, { method: r.method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the schema check says so
  }
  return { status: res.status, contentType: res.headers.get('content-type'), body: parsed };
}

/** Checks an answer against the document: what it says is wrong, or [] when nothing is. */
export class AnswerChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
  // closed: an answer may hold no property its schema does not name, so every field answered is described
  constructor(doc: OpenApi) {
    addFormats.default(this.ajv);
    const schemas = Object.fromEntries(Object.entries(doc.components.schemas).map(([k, v]) => [k, v.properties ? { ...v, additionalProperties: false } : v]));
    this.ajv.addSchema({ $id: 'openapi', components: { ...doc.components, schemas } }, 'openapi');
  }

  problems(o: Operation, r: CaseRequest, a: CaseAnswer): string[] {
    const out: string[] = [];
    if (a.status >= 500) out.push(`answered ${a.status}`);
    if (r.breaks && (a.status < 400 || a.status >= 500)) out.push(`${r.breaks}: answered ${a.status}, not a 4xx`);
    if (r.anonymous && a.status !== 401) out.push(`no token: answered ${a.status}, not 401`);
    const documented = o.op.responses[String(a.status)];
    if (!documented) {
      out.push(`status ${a.status} is not documented for ${o.op.operationId}`);
      return out;
    }
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) return out;
    if (!a.contentType?.startsWith('application/json')) out.push(`Content-Type ${a.contentType}, not JSON`);
    const key = JSON.stringify(schema);
    const validate = this.compiled.get(key) ?? this.ajv.compile(rebase(schema));
    this.compiled.set(key, validate);
    if (!validate(a.body)) out.push(`body does not match its schema: ${this.ajv.errorsText(validate.errors)}`);
    return out;
  }
}

/** A schema of the document, its references pointed at the document registered with the validator. */
function rebase(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
}
