import { type DescField, type DescMessage, type DescMethodUnary, ScalarType } from '@bufbuild/protobuf';
import { CapabilitySchema } from '../gen/capabilities/capabilities_pb.js';
import { DEFAULT_PAGE_SIZE, MAX_INT32, MAX_PAGE_SIZE } from '../list/page-params.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import type { FieldRule } from '../mapping/mapping-schema.js';
import { RULES } from '../translate/validate-input.js';
import { UIDP } from '../uidp/uidp.js';
import { GRPC_SERVICES } from './grpc-routes.js';

type Schema = Record<string, unknown>;

/** The document's parts the reference page reads (the rest is OpenAPI's own). */
export interface OpenApiDocument extends Schema {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema> } & Schema;
}

/** 64-bit integers are strings in proto JSON (and so in the v2 REST answers). */
const SCALARS: Partial<Record<ScalarType, Schema>> = {
  [ScalarType.STRING]: { type: 'string' },
  [ScalarType.BOOL]: { type: 'boolean' },
  [ScalarType.INT32]: { type: 'integer', format: 'int32' },
  [ScalarType.SINT32]: { type: 'integer', format: 'int32' },
  [ScalarType.SFIXED32]: { type: 'integer', format: 'int32' },
  [ScalarType.UINT32]: { type: 'integer', format: 'int32', minimum: 0 },
  [ScalarType.FIXED32]: { type: 'integer', format: 'int32', minimum: 0 },
  [ScalarType.INT64]: { type: 'string', format: 'int64' },
  [ScalarType.SINT64]: { type: 'string', format: 'int64' },
  [ScalarType.SFIXED64]: { type: 'string', format: 'int64' },
  [ScalarType.UINT64]: { type: 'string', format: 'int64' },
  [ScalarType.FIXED64]: { type: 'string', format: 'int64' },
  [ScalarType.DOUBLE]: { type: 'number' },
  [ScalarType.FLOAT]: { type: 'number' },
  [ScalarType.BYTES]: { type: 'string', contentEncoding: 'base64' },
};

/** The well-known types as proto JSON writes them. */
const WELL_KNOWN: Record<string, Schema> = {
  'google.protobuf.Timestamp': { type: 'string', format: 'date-time' },
  'google.protobuf.Duration': { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?s$' },
  'google.protobuf.FieldMask': { type: 'string' },
  'google.protobuf.Struct': { type: 'object' },
  'google.protobuf.Value': {},
  'google.protobuf.Empty': { type: 'object' },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A mapping's field types as JSON schemas (int64 values are strings in proto JSON, but a mapping's `int` is a plain number). */
const RULE_TYPES: Record<NonNullable<FieldRule['type']>, Schema> = {
  string: { type: 'string' },
  bool: { type: 'boolean' },
  int: { type: 'integer' },
  object: { type: 'object' },
  map: { type: 'object' },
  list: { type: 'array', items: {} },
  timestamp: { type: 'string', format: 'date-time' },
};

/** A field the mapping knows and the proto does not, described from its rule. */
function ruleSchema(rule: FieldRule): Schema {
  if (rule.fields) return { type: 'object', properties: Object.fromEntries(rule.fields.map((f) => [f.v2, ruleSchema(f)])) };
  if (rule.values) return { type: 'string', enum: rule.values };
  return rule.type ? RULE_TYPES[rule.type] : {};
}

/** Component schemas of messages, each written once, named by their full proto name. */
class Schemas {
  readonly all: Record<string, Schema> = {};
  /** by enum, the values the service takes where they are not the proto's (a later version adds some) */
  constructor(private readonly takenValues: ReadonlyMap<string, readonly string[]>) {}

  of(message: DescMessage): Schema {
    const known = WELL_KNOWN[message.typeName];
    if (known) return known;
    if (!this.all[message.typeName]) {
      this.all[message.typeName] = {};
      const properties: Record<string, Schema> = {};
      for (const f of message.fields) properties[f.jsonName] = this.field(f);
      // open: a newer service (the native backend) may answer fields this proto does not have yet
      this.all[message.typeName] = { type: 'object', properties };
    }
    return ref(message.typeName);
  }

  /**
   * Marks the resource's fields the mapping says a client never sets (`readOnly`: the server fills
   * them) or never sees (`writeOnly`): a field is either when every mapped part of it is. The
   * service's reserved fields are left out.
   */
  mark(message: DescMessage, fields: readonly FieldRule[], reserved: readonly string[]): void {
    const properties = this.all[message.typeName]?.properties as Record<string, Schema> | undefined;
    if (!properties) return;
    this.describeUnknown(properties, fields);
    for (const name of reserved) delete properties[name];
    const byTop = new Map<string, (typeof fields)[number][]>();
    for (const f of fields) {
      const top = f.v2.split('.')[0] as string;
      byTop.set(top, [...(byTop.get(top) ?? []), f]);
    }
    for (const [name, parts] of byTop) {
      let property = properties[name];
      if (!property) continue;
      // the platform's validation rule of a plain field, as the proxy checks it
      const rule = parts.length === 1 && parts[0]?.v2 === name ? parts[0].rule : undefined;
      if (rule && property.type === 'string') property = { ...property, pattern: RULES[rule].pattern.source };
      properties[name] = property;
      const flag = parts.every((f) => f.output) ? 'readOnly' : parts.every((f) => f.input) ? 'writeOnly' : undefined;
      if (flag) properties[name] = property.$ref ? { allOf: [property], [flag]: true } : { ...property, [flag]: true };
    }
  }

  /**
   * Describes what both sides answer that the proto does not name yet (a later version does: an
   * identity provider's `scim`, its OIDC `groupsClaim`), from the mapping's rules, nested ones in
   * their message's schema too.
   */
  private describeUnknown(properties: Record<string, Schema>, fields: readonly FieldRule[]): void {
    for (const f of fields) {
      if (f.v2.includes('.')) continue;
      const property = properties[f.v2];
      if (!property) properties[f.v2] = ruleSchema(f);
      else if (f.fields) {
        const nested = this.propertiesOf(property);
        if (nested) this.describeUnknown(nested, f.fields);
      }
    }
  }

  /** The message's schema, narrowed to what a create must give (an update's body requires nothing). */
  required(message: DescMessage, fields: readonly FieldRule[]): Schema {
    return this.withRequired(this.of(message), fields);
  }

  /**
   * `schema` with `required` beside it, from the mapping's required fields; a nested object's under
   * its own property.
   */
  private withRequired(schema: Schema, fields: readonly FieldRule[]): Schema {
    const required = fields.filter((f) => f.required && !f.output).map((f) => f.v2);
    const properties: Record<string, Schema> = {};
    for (const f of fields) {
      const inner = f.fields ? this.propertiesOf(schema)?.[f.v2] : undefined;
      if (!inner || !f.fields) continue;
      // a marked property wraps its reference: `{allOf: [{$ref}], readOnly}`
      const target = (inner.allOf as Schema[] | undefined)?.[0] ?? inner;
      const narrowed = this.withRequired(target, f.fields);
      if (narrowed !== target) properties[f.v2] = narrowed;
    }
    if (required.length === 0 && Object.keys(properties).length === 0) return schema;
    return { allOf: [schema], ...(required.length > 0 ? { required } : {}), ...(Object.keys(properties).length > 0 ? { properties } : {}) };
  }

  /** The properties of a schema, or of the component it refers to. */
  private propertiesOf(schema: Schema): Record<string, Schema> | undefined {
    const component = typeof schema.$ref === 'string' ? this.all[schema.$ref.split('/').at(-1) as string] : schema;
    return component?.properties as Record<string, Schema> | undefined;
  }

  private single(
    kind: 'scalar' | 'enum' | 'message',
    f: { scalar?: ScalarType | undefined; enum?: DescField['enum']; message?: DescMessage | undefined },
  ): Schema {
    if (kind === 'enum' && f.enum) return { type: 'string', enum: [...(this.takenValues.get(f.enum.typeName) ?? f.enum.values.map((v) => v.name))] };
    if (kind === 'message' && f.message) return this.of(f.message);
    return SCALARS[f.scalar as ScalarType] ?? {};
  }

  private field(f: DescField): Schema {
    switch (f.fieldKind) {
      case 'list':
        return { type: 'array', items: this.single(f.listKind, f) };
      case 'map':
        return { type: 'object', additionalProperties: this.single(f.mapKind, f) };
      default:
        return this.single(f.fieldKind, f);
    }
  }
}

const STATUS_SCHEMA: Schema = {
  type: 'object',
  description: 'An AIP-193 error: the gRPC code, a message, and typed details (ErrorInfo, BadRequest, PreconditionFailure)',
  required: ['code', 'message', 'details'],
  properties: {
    code: { type: 'integer', minimum: 1, maximum: 16 },
    message: { type: 'string' },
    details: { type: 'array', items: { type: 'object', required: ['@type'], properties: { '@type': { type: 'string' } } } },
  },
};

/** What each error status means on the v2 surface: AIP-193 codes through the gateway's code-to-status table. */
const MEANINGS: Record<string, string> = {
  '400': 'INVALID_ARGUMENT (each bad field named in a BadRequest), FAILED_PRECONDITION (a PreconditionFailure says why) or OUT_OF_RANGE',
  '401': 'UNAUTHENTICATED: no token, or one the backend does not take',
  '403': 'PERMISSION_DENIED: the caller may not do this here (checked before existence)',
  '404': 'NOT_FOUND: the resource (or the parent named) does not exist, or is not shown to the caller',
  '408': 'DEADLINE_EXCEEDED: the request (headers and body) did not arrive in time',
  '409': 'ALREADY_EXISTS, or ABORTED: another write of the resource is running, or the first request with this Idempotency-Key still is; retry',
  '429': 'RESOURCE_EXHAUSTED: a body over the limit, or the backend is rate limiting',
  '431': 'RESOURCE_EXHAUSTED: the request headers are too large',
  '500': 'INTERNAL, UNKNOWN or DATA_LOSS, as the backend said',
  '503': 'UNAVAILABLE: a backend or the shared state store does not answer, or the proxy is shutting down; retry',
  '504': 'DEADLINE_EXCEEDED: a backend did not answer in time',
};

const INFO = [
  'The v2beta1 REST surface of the platform API (identity, registry and vulnerability resources), served by v2proxy: translated onto a v1 backend or forwarded to a native v2 one.',
  'Errors are AIP-193 (`google.rpc.Status` as JSON). A method a path does not serve is answered as the service’s gateway answers it: 501 with code 12 (UNIMPLEMENTED) and an `Allow` header naming the methods the path serves.',
].join('\n\n');

/** The error statuses each kind of operation can answer (a create's parent may be missing; writes race). */
const ANY = ['400', '401', '403', '408', '429', '431', '500', '503', '504'];
export const ERROR_STATUSES = {
  list: ANY,
  get: [...ANY, '404'],
  create: [...ANY, '404', '409'],
  update: [...ANY, '404', '409'],
  delete: [...ANY, '404', '409'],
  exchange: ANY,
} as const satisfies Record<string, readonly string[]>;

function responses(ok: Schema, kind: keyof typeof ERROR_STATUSES): Record<string, unknown> {
  const out: Record<string, unknown> = { '200': { description: 'the answer', content: { 'application/json': { schema: ok } } } };
  for (const status of [...ERROR_STATUSES[kind]].sort())
    out[status] = { description: MEANINGS[status], content: { 'application/json': { schema: ref('google.rpc.Status') } } };
  return out;
}

const UID = { type: 'string', pattern: UIDP.source };

/** What `order_by` takes: sortable fields under either spelling, a direction each, comma-separated. */
function orderByPattern(sortable: readonly string[]): string {
  const names = [...new Set(sortable.flatMap((f) => [f, f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]))].map((f) => f.replaceAll('.', '\\.'));
  const key = `(${names.join('|')})( +(asc|desc))?`;
  return `^${key}( *, *${key})*$`;
}

/**
 * The item path's one parameter (OpenAPI forbids two templates of the same shape): the resource's
 * uid, or on a create the parent group's, under which the new resource is made.
 */
const uidParam = (of: 'resource' | 'parent') => ({
  name: 'uid',
  in: 'path',
  required: true,
  description: `the ${of === 'resource' ? "resource's" : 'parent group’s (the new resource is made under it)'} uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped)`,
  schema: UID,
});

function listParams(r: CompiledResource): unknown[] {
  const params: unknown[] = [
    {
      name: 'page_size',
      in: 'query',
      description: `items per page (0: ${DEFAULT_PAGE_SIZE}; a larger one is served as ${MAX_PAGE_SIZE})`,
      schema: { type: 'integer', format: 'int32', minimum: 0, maximum: MAX_PAGE_SIZE },
    },
    { name: 'page_token', in: 'query', description: 'the nextPageToken of the page before', schema: { type: 'string' } },
    {
      name: 'skip',
      in: 'query',
      description: 'items to skip before the page (echoed as `skipped`)',
      schema: { type: 'integer', format: 'int32', minimum: 0, maximum: MAX_INT32 },
    },
  ];
  const sortable = r.mapping.list?.sortable ?? [];
  if (sortable.length > 0)
    params.push({
      name: 'order_by',
      in: 'query',
      description: `comma-separated fields (camel or snake case), each optionally followed by \` asc\` or \` desc\`: ${sortable.join(', ')}`,
      schema: { type: 'string', pattern: orderByPattern(sortable) },
    });
  for (const f of r.mapping.list?.filters ?? []) {
    // a filter's value is not checked (one that matches nothing, a malformed uid too, lists nothing)
    // but where it is a switch or one of named values
    const one =
      f.match === 'include' ? { type: 'boolean' } : f.match === 'presence' && f.values ? { type: 'string', enum: Object.keys(f.values) } : { type: 'string' };
    const description = f.param === 'uidp.ids' ? 'uids of the resources to list' : f.param.startsWith('uidp.') ? 'a group uid' : undefined;
    params.push({ name: f.param, in: 'query', ...(description ? { description } : {}), schema: f.repeated ? { type: 'array', items: one } : one });
  }
  return params;
}

/** A collection's name in words: `roleBindings` → role binding(s), with its article. */
function nounOf(collection: string): { singular: string; plural: string; one: string } {
  const plural = collection.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  const singular = plural.endsWith('ies') ? `${plural.slice(0, -3)}y` : plural.replace(/s$/, '');
  return { singular, plural, one: `${/^[aeiou]/.test(singular) ? 'an' : 'a'} ${singular}` };
}

/** The created resource's uid leads to its Get, Update and Delete. */
function withLinks(out: Record<string, unknown>, name: string, ops: readonly string[]): Record<string, unknown> {
  const links: Record<string, unknown> = {};
  for (const op of ['get', 'update', 'delete'])
    if (ops.includes(op))
      links[`${op}Created`] = {
        operationId: `${op}_${name}`,
        parameters: { uid: '$response.body#/uid' },
        description: `${op[0]?.toUpperCase()}${op.slice(1)} what was created`,
      };
  const ok = out['200'] as Schema;
  return { ...out, '200': { ...ok, links } };
}

/**
 * The OpenAPI 3.1 document of the v2beta1 REST surface as this proxy serves it: built from the
 * mappings that route requests (paths, operations, list parameters) and the protos of its gRPC
 * twin (bodies and answers as proto JSON), so it cannot drift from either. Pure.
 */
export function openApiDocument(resources: readonly CompiledResource[], version: string): OpenApiDocument {
  // exactly the capabilities the mappings can name in v1: the proxy refuses the rest, as v1 would
  const capabilityNames = [...(resources[0]?.capabilities.toV1.keys() ?? [])];
  const schemas = new Schemas(new Map([[CapabilitySchema.typeName, capabilityNames]]));
  const paths: Record<string, Record<string, Schema>> = {};
  const at = (path: string) => {
    paths[path] ??= {};
    return paths[path];
  };
  for (const [service, name] of GRPC_SERVICES) {
    const r = resources.find((x) => x.mapping.resource === name);
    if (!r) continue;
    const method = (verb: string) => service.methods.find((m) => m.name.startsWith(verb)) as DescMethodUnary | undefined;
    const base = `${r.prefix}/${r.segment}`;
    const ops = r.mapping.v2.operations;
    const tag = [r.mapping.resource];
    const resource = method('Get')?.output;
    if (!resource) continue;
    schemas.of(resource);
    schemas.mark(resource, r.mapping.fields, r.mapping.reserved);
    const noun = nounOf(name);
    const update = { required: true, content: { 'application/json': { schema: schemas.of(resource) } } };
    const list = method('List');
    if (ops.includes('list') && list)
      at(base).get = {
        operationId: `list_${name}`,
        summary: `List ${noun.plural}`,
        tags: tag,
        parameters: listParams(r),
        responses: responses(schemas.of(list.output), 'list'),
      };
    // each path's methods in the order the reference page shows them: GET, POST, PATCH, DELETE
    if (ops.includes('get'))
      at(`${base}/{uid}`).get = {
        operationId: `get_${name}`,
        summary: `Get ${noun.one}`,
        tags: tag,
        parameters: [uidParam('resource')],
        responses: responses(schemas.of(resource), 'get'),
      };
    if (ops.includes('create')) {
      const create = {
        tags: tag,
        requestBody: { required: true, content: { 'application/json': { schema: schemas.required(resource, r.mapping.fields) } } },
        responses: withLinks(responses(schemas.of(resource), 'create'), name, ops),
      };
      at(`${base}/{uid}`).post = { operationId: `create_${name}`, summary: `Create ${noun.one} under a group`, parameters: [uidParam('parent')], ...create };
      if (r.mapping.rootParent) at(base).post = { operationId: `create_root_${name}`, summary: `Create a root ${noun.singular}`, ...create };
    }
    if (ops.includes('update'))
      at(`${base}/{uid}`).patch = {
        operationId: `update_${name}`,
        summary: `Update ${noun.one}: the fields the mask names, or those in the body`,
        tags: tag,
        parameters: [
          uidParam('resource'),
          {
            name: 'update_mask',
            in: 'query',
            description: 'the fields to change, comma-separated (camel or snake, dotted; * for all); none: the fields in the body',
            schema: { type: 'string' },
          },
        ],
        requestBody: update,
        responses: responses(schemas.of(resource), 'update'),
      };
    if (ops.includes('delete'))
      at(`${base}/{uid}`).delete = {
        operationId: `delete_${name}`,
        summary: `Delete ${noun.one}`,
        tags: tag,
        parameters: [uidParam('resource')],
        responses: responses({ type: 'object' }, 'delete'),
      };
  }
  // the token exchange: an identity token (the bearer) for a platform token, forwarded to the issuer
  const exchange = {
    tags: ['sts'],
    description: 'exchanges the bearer (an identity token) for a platform token; an `aud` naming this proxy becomes the v1 audience',
    responses: responses({ type: 'object', required: ['token'], properties: { token: { type: 'string' } } }, 'exchange'),
  };
  const stsParams = [
    { name: 'aud', in: 'query', required: true, description: 'the audience(s) of the token asked for', schema: { type: 'array', items: { type: 'string' } } },
    { name: 'scope', in: 'query', schema: { type: 'string' } },
    { name: 'identity', in: 'query', description: 'the identity (uid) to assume', schema: { type: 'string' } },
  ];
  at('/sts/exchange').get = { operationId: 'sts_exchange', summary: 'Exchange an identity token for a platform token', parameters: stsParams, ...exchange };
  at('/sts/exchange').post = {
    operationId: 'sts_exchange_form',
    summary: 'Exchange an identity token for a platform token (a form)',
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            required: ['aud'],
            properties: { aud: { type: 'array', items: { type: 'string' } }, scope: { type: 'string' }, identity: { type: 'string' } },
          },
        },
      },
    },
    ...exchange,
  };
  schemas.all['google.rpc.Status'] = STATUS_SCHEMA;
  return {
    openapi: '3.1.0',
    info: { title: 'Platform API v2beta1, as v2proxy serves it', version, description: INFO },
    // the host that serves this document serves the API
    servers: [{ url: '/', description: 'this proxy' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'the caller’s token (the platform’s SDK may send it bare)' } },
      schemas: Object.fromEntries(Object.entries(schemas.all).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
