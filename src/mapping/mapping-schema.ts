import { z } from 'zod';

const fieldName = z.string().regex(/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/, { error: 'must be a JSON field name (dotted for nesting)' });

export interface FieldRuleInput {
  v2: string;
  v1?: string | undefined;
  type?: 'string' | 'bool' | 'int' | 'object' | 'list' | 'map' | 'timestamp' | undefined;
  enum?: { prefix?: string | undefined; zero?: [string, string] | undefined; table?: 'capabilities' | undefined } | undefined;
  fields?: FieldRuleInput[] | undefined;
  only?: string[] | undefined;
  output?: boolean | undefined;
  input?: boolean | undefined;
  hidden?: boolean | undefined;
  created?: boolean | undefined;
  required?: boolean | undefined;
  rule?: 'name' | 'description' | 'uid' | undefined;
  meta?: 'created' | 'updated' | undefined;
  values?: string[] | undefined;
}

/** One field: its v2 and v1 names, how its value converts, and what a client may do with it. */
export const FieldRuleSchema: z.ZodType<FieldRuleInput> = z.lazy(() =>
  z.strictObject({
    v2: fieldName,
    v1: fieldName.optional(),
    type: z.enum(['string', 'bool', 'int', 'object', 'list', 'map', 'timestamp']).optional(),
    enum: z
      .strictObject({
        prefix: z.string().min(1).optional(),
        zero: z.tuple([z.string(), z.string()]).optional(),
        table: z.literal('capabilities').optional(),
      })
      .optional(),
    fields: z.array(FieldRuleSchema).optional(),
    only: z.array(z.string()).optional(),
    output: z.boolean().optional(),
    input: z.boolean().optional(),
    hidden: z.boolean().optional(),
    /** shown in a create's answer only, never read back (an invite's code) */
    created: z.boolean().optional(),
    required: z.boolean().optional(),
    rule: z.enum(['name', 'description', 'uid']).optional(),
    /** a time v1 does not keep: supplied by the proxy's side store (src/meta) */
    meta: z.enum(['created', 'updated']).optional(),
    /** the names a string field takes where the protos do not say (an enum of a later version): what the OpenAPI document lists */
    values: z.array(z.string().min(1)).min(1).optional(),
  }),
);

const filterSchema = z.strictObject({
  /** v2 query parameter (snake_case) */
  param: z.string().min(1),
  /** where it is applied: passed to v1 (optionally renamed), or applied by the proxy */
  to: z.enum(['v1', 'proxy']),
  v1: z.string().min(1).optional(),
  /** which v2 field a proxy-side filter compares (dotted) */
  field: z.string().min(1).optional(),
  match: z.enum(['exact', 'children', 'descendants', 'ids', 'presence', 'substring', 'include']).optional(),
  /** `substring`: the v2 fields searched (case-insensitive; list fields match on any element) */
  fields: z.array(z.string().min(1)).optional(),
  /** `presence`: each accepted value and the v2 field it requires (an empty field accepts all) */
  values: z.record(z.string(), z.string()).optional(),
  repeated: z.boolean().optional(),
  /** v2 enum values given to a v1 filter: the v2 prefix is taken off (`REVIEW_STATE_X` → `X`) */
  enum: z.strictObject({ prefix: z.string().min(1), zero: z.tuple([z.string(), z.string()]).optional() }).optional(),
});

/** A resource: its routes on both sides, its fields, list behaviour and delete preconditions. */
export const MappingSchema = z.strictObject({
  resource: z.string().regex(/^[a-z][A-Za-z]+$/, { error: 'must be the lowerCamel plural, e.g. roleBindings' }),
  v2: z.strictObject({
    path: z.string().regex(/^\/[a-z]+\/v2beta1\/[A-Za-z]+$/, { error: 'must look like /iam/v2beta1/groups' }),
    operations: z.array(z.enum(['list', 'get', 'create', 'update', 'delete'])).min(1),
    /** custom `:verb` methods of the real API the proxy knows but does not serve */
    verbs: z.array(z.string().regex(/^[a-z][A-Za-z]+$/)).default([]),
    /** operations neither version can do, with the reason given to clients (UNIMPLEMENTED) */
    unsupported: z.partialRecord(z.enum(['list', 'get', 'create', 'update', 'delete']), z.string().min(1)).default({}),
  }),
  v1: z.strictObject({
    path: z.string().regex(/^\/[a-z]+\/v1\/[A-Za-z_]+$/, { error: 'must look like /iam/v1/groups' }),
    /** the v1 field holding the uid (`id`; `group` for account associations) */
    key: z.string().min(1).default('id'),
    /** the v1 List filter that finds one record by uid */
    getBy: z.string().min(1).default('id'),
    /** read the record back after a create or update, and take it (`replace`) or lay the v1 answer over it (`merge`) */
    createReadback: z.enum(['none', 'replace', 'merge']).default('none'),
    /** v1 pages this list itself (`page_token` / `nextPageToken`): the proxy follows every page */
    paged: z.boolean().default(false),
    /** on a read-modify-write, v1 fields whose read value is an object and whose written value is one of its fields */
    writeBack: z.record(z.string(), z.string()).default({}),
  }),
  /** whether a create may have an empty parent (a root group) */
  rootParent: z.boolean().default(false),
  fields: z.array(FieldRuleSchema).min(1),
  list: z.strictObject({
    sortable: z.array(z.string()).min(1),
    defaultOrder: z.string().default('uid asc'),
    /** other names clients may sort by (account associations: `group` is the uid) */
    aliases: z.record(z.string(), z.string()).default({}),
    filters: z.array(filterSchema).default([]),
    /**
     * scope filters under which root-level records (managed roles) belong to every group's list:
     * when one is given, the root records matching the other v1 filters are fetched too
     */
    rootShared: z.array(z.string()).default([]),
  }),
  /** fields of the resource's proto the service has reserved: neither taken nor answered, so not described */
  reserved: z.array(fieldName).default([]),
  /** groups of v2 paths of which a record holds at most one (proto oneofs): a PATCH setting one clears the others */
  oneofs: z.array(z.array(fieldName).min(2)).default([]),
  /**
   * groups of v2 paths of which a created record must hold exactly one; a dotted group applies when
   * its parent object is given (a claim match needs `issuer` or `issuerPattern`)
   */
  requiredOneOf: z.array(z.array(fieldName).min(2)).default([]),
  /** objects of an item completed from another resource, looked up in one batched v1 call per page */
  hydrate: z
    .array(
      z.strictObject({
        /** the v2 object to complete; it holds the other resource's `uid` */
        at: z.string().min(1),
        /** the resource looked up (its mapping gives the v1 list and the translation) */
        from: z.string().min(1),
        /** v2 fields of that resource copied in; empty when the caller cannot see it */
        fields: z.array(z.string().min(1)).min(1),
        /** the v1 list filter that takes many uids at once */
        batchBy: z.string().min(1).default('uidp.ids'),
      }),
    )
    .default([]),
  deletePreconditions: z
    .array(
      z.strictObject({
        /** v1 list whose records below the resource block its delete */
        v1Path: z.string().min(1),
        scope: z.enum(['children', 'descendants']),
        type: z.string().min(1),
        description: z.string().min(1),
      }),
    )
    .default([]),
});

export type Mapping = z.output<typeof MappingSchema>;
export type FieldRule = FieldRuleInput;
export type ListFilter = z.output<typeof filterSchema>;
