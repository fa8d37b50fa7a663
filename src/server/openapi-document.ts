import { type DescField, type DescMessage, type DescMethodUnary, ScalarType } from '@bufbuild/protobuf';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../list/page-params.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import { GRPC_SERVICES } from './grpc-routes.js';

type Schema = Record<string, unknown>;

/** The document's parts the reference page reads (the rest is OpenAPI's own). */
export interface OpenApiDocument extends Schema {
  info: { title: string; version: string };
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

/** Component schemas of messages, each written once, named by their full proto name. */
class Schemas {
  readonly all: Record<string, Schema> = {};

  of(message: DescMessage): Schema {
    const known = WELL_KNOWN[message.typeName];
    if (known) return known;
    if (!this.all[message.typeName]) {
      this.all[message.typeName] = {};
      const properties: Record<string, Schema> = {};
      for (const f of message.fields) properties[f.jsonName] = this.field(f);
      this.all[message.typeName] = { type: 'object', properties, additionalProperties: false };
    }
    return ref(message.typeName);
  }

  private single(
    kind: 'scalar' | 'enum' | 'message',
    f: { scalar?: ScalarType | undefined; enum?: DescField['enum']; message?: DescMessage | undefined },
  ): Schema {
    if (kind === 'enum' && f.enum) return { type: 'string', enum: f.enum.values.map((v) => v.name) };
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

/** The statuses every v2 operation may answer besides 200, and those of operations on one resource. */
const ERRORS = ['400', '401', '403', '429', '500', '501', '503', '504'];
const ITEM_ERRORS = ['404', '409', '412'];

function responses(ok: Schema, item: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { '200': { description: 'the answer', content: { 'application/json': { schema: ok } } } };
  for (const status of [...ERRORS, ...(item ? ITEM_ERRORS : [])].sort())
    out[status] = { description: 'an AIP-193 error', content: { 'application/json': { schema: ref('google.rpc.Status') } } };
  return out;
}

const uidParam = (name: 'uid' | 'parent') => ({
  name,
  in: 'path',
  required: true,
  description: `the ${name === 'uid' ? "resource's" : "parent group's"} uid: 40 hex characters, then /16 hex characters per level (its slashes are not escaped)`,
  schema: { type: 'string', pattern: '^[0-9a-f]{40}(/[0-9a-f]{16})*$' },
});

function listParams(r: CompiledResource): unknown[] {
  const params: unknown[] = [
    {
      name: 'page_size',
      in: 'query',
      description: `items per page (0: ${DEFAULT_PAGE_SIZE})`,
      schema: { type: 'integer', minimum: 0, maximum: MAX_PAGE_SIZE },
    },
    { name: 'page_token', in: 'query', description: 'the nextPageToken of the page before', schema: { type: 'string' } },
    { name: 'skip', in: 'query', description: 'items to skip before the page', schema: { type: 'integer', minimum: 0 } },
  ];
  const sortable = r.mapping.list?.sortable ?? [];
  if (sortable.length > 0)
    params.push({
      name: 'order_by',
      in: 'query',
      description: `comma-separated fields, each optionally followed by \` desc\`: ${sortable.join(', ')}`,
      schema: { type: 'string' },
    });
  for (const f of r.mapping.list?.filters ?? []) {
    params.push({ name: f.param, in: 'query', schema: f.repeated ? { type: 'array', items: { type: 'string' } } : { type: 'string' } });
  }
  return params;
}

/**
 * The OpenAPI 3.1 document of the v2beta1 REST surface as this proxy serves it: built from the
 * mappings that route requests (paths, operations, list parameters) and the protos of its gRPC
 * twin (bodies and answers as proto JSON), so it cannot drift from either. Pure.
 */
export function openApiDocument(resources: readonly CompiledResource[], version: string): OpenApiDocument {
  const schemas = new Schemas();
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
    const body = { required: true, content: { 'application/json': { schema: schemas.of(resource) } } };
    const list = method('List');
    if (ops.includes('list') && list)
      at(base).get = { operationId: `list_${name}`, tags: tag, parameters: listParams(r), responses: responses(schemas.of(list.output), false) };
    if (ops.includes('create')) {
      const create = { tags: tag, requestBody: body, responses: responses(schemas.of(resource), true) };
      at(`${base}/{parent}`).post = { operationId: `create_${name}`, parameters: [uidParam('parent')], ...create };
      if (r.mapping.rootParent) at(base).post = { operationId: `create_root_${name}`, ...create };
    }
    if (ops.includes('get'))
      at(`${base}/{uid}`).get = { operationId: `get_${name}`, tags: tag, parameters: [uidParam('uid')], responses: responses(schemas.of(resource), true) };
    if (ops.includes('update'))
      at(`${base}/{uid}`).patch = {
        operationId: `update_${name}`,
        tags: tag,
        parameters: [
          uidParam('uid'),
          {
            name: 'update_mask',
            in: 'query',
            description: 'the fields to change, comma-separated (camel or snake, dotted; * for all); none: the fields in the body',
            schema: { type: 'string' },
          },
        ],
        requestBody: body,
        responses: responses(schemas.of(resource), true),
      };
    if (ops.includes('delete'))
      at(`${base}/{uid}`).delete = { operationId: `delete_${name}`, tags: tag, parameters: [uidParam('uid')], responses: responses({ type: 'object' }, true) };
  }
  // the token exchange: an identity token (the bearer) for a platform token, forwarded to the issuer
  const exchange = {
    tags: ['sts'],
    description: 'exchanges the bearer (an identity token) for a platform token; an `aud` naming this proxy becomes the v1 audience',
    responses: responses({ type: 'object', required: ['token'], properties: { token: { type: 'string' } } }, false),
  };
  const stsParams = [
    { name: 'aud', in: 'query', description: 'the audience(s) of the token asked for', schema: { type: 'array', items: { type: 'string' } } },
    { name: 'scope', in: 'query', schema: { type: 'string' } },
    { name: 'identity', in: 'query', description: 'the identity (uid) to assume', schema: { type: 'string' } },
  ];
  at('/sts/exchange').get = { operationId: 'sts_exchange', parameters: stsParams, ...exchange };
  at('/sts/exchange').post = {
    operationId: 'sts_exchange_form',
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
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
    info: { title: 'Platform API v2beta1, as v2proxy serves it', version },
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'the caller’s token (the platform’s SDK may send it bare)' } },
      schemas: Object.fromEntries(Object.entries(schemas.all).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
