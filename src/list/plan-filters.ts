import { invalidFields } from '../errors/error-registry.js';
import type { ApiError } from '../errors/api-error.js';
import type { CompiledResource } from '../mapping/compiled-resource.js';
import type { ListFilter } from '../mapping/mapping-schema.js';
import { enumToV1 } from '../translate/convert-enum.js';
import { type Json, getPath } from '../json/json-path.js';
import type { QueryValues } from '../upstream/v1-client.js';
import { isAncestor, parentOf } from '../uidp/uidp.js';
import { type RawQuery, paramValues } from './query-params.js';

export type Predicate = (item: Json) => boolean;

/** A list query split by where each filter runs: passed to v1, or applied by the proxy afterwards. */
export interface FilterPlan {
  v1Query: QueryValues;
  /** a second v1 query for the root-level records that belong to every group's list, when the scope asks for them */
  rootQuery?: QueryValues;
  predicates: Predicate[];
  /** the filters in a canonical form, for binding page tokens and keying snapshots */
  signature: string;
}

const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined || v === null ? [] : [String(v)]);

function predicateOf(filter: ListFilter, values: string[]): Predicate {
  const path = (filter.field ?? filter.param).split('.');
  const [first] = values;
  switch (filter.match ?? 'exact') {
    case 'children':
      return (item) => parentOf(String(getPath(item, path))) === first;
    case 'descendants':
      return (item) => isAncestor(first ?? '', String(getPath(item, path)));
    case 'ids':
      return (item) => values.includes(String(getPath(item, path)));
    case 'presence': {
      const required = values.map((v) => filter.values?.[v]);
      return (item) => required.some((field) => field === '' || (field !== undefined && getPath(item, field.split('.')) !== undefined));
    }
    case 'substring': {
      const needle = (first ?? '').toLowerCase();
      const fields = (filter.fields ?? []).map((f) => f.split('.'));
      return (item) => fields.some((f) => asStrings(getPath(item, f)).some((s) => s.toLowerCase().includes(needle)));
    }
    default:
      return (item) => values.includes(String(getPath(item, path)));
  }
}

/**
 * Reads the list filters of a v2 query against the resource's mapping. Never throws: a bad filter
 * comes back as the ApiError to answer with.
 */
export function planFilters(resource: CompiledResource, query: RawQuery): FilterPlan | ApiError {
  const { mapping } = resource;
  const plan: FilterPlan = { v1Query: {}, predicates: [], signature: '' };
  const used: [string, string[]][] = [];
  if (paramValues(query, 'name').some((v) => v !== '') && !resource.filters.has('name')) {
    return invalidFields([{ field: 'name', description: `${mapping.resource} have no name to filter on` }]);
  }
  for (const filter of resource.filters.values()) {
    const values = paramValues(query, filter.param).filter((v) => v !== '');
    if (filter.match === 'include') {
      // v2 include_X (default false) is the inverse of v1 exclude_X.
      const included = values.at(-1) === 'true' || values.at(-1) === '1';
      if (values.length > 0 && !['true', 'false', '1', '0'].includes(values.at(-1) ?? '')) {
        return invalidFields([{ field: filter.param, description: `${filter.param} must be true or false` }]);
      }
      plan.v1Query[filter.v1 ?? filter.param] = included ? 'false' : 'true';
      used.push([filter.param, [String(included)]]);
      continue;
    }
    if (values.length === 0) continue;
    if (filter.match === 'presence') {
      const unknown = values.find((v) => filter.values?.[v] === undefined);
      if (unknown !== undefined) return invalidFields([{ field: filter.param, description: `unknown ${filter.param} ${JSON.stringify(unknown)}` }]);
    }
    const given = filter.repeated ? values : values.slice(-1);
    used.push([filter.param, filter.repeated ? [...given].sort() : given]);
    if (filter.to === 'proxy') {
      plan.predicates.push(predicateOf(filter, given));
      continue;
    }
    const enumRule = filter.enum;
    const converted = enumRule ? given.map((v) => enumToV1(v, enumRule, resource.capabilities) ?? v) : given;
    plan.v1Query[filter.v1 ?? filter.param] = filter.repeated ? converted : converted[0];
  }
  plan.signature = JSON.stringify(used.sort(([a], [b]) => (a < b ? -1 : 1)));
  const scoped = mapping.list.rootShared.filter((param) => plan.v1Query[param] !== undefined);
  if (scoped.length > 0 && plan.v1Query['uidp.ids'] === undefined) {
    const rest = Object.fromEntries(Object.entries(plan.v1Query).filter(([k]) => !k.startsWith('uidp.')));
    plan.rootQuery = { ...rest, 'uidp.in_root': 'true' };
  }
  return plan;
}
