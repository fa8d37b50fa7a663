import type { FieldViolation } from '../errors/api-error.js';
import type { CompiledResource, CompiledRule, CompiledRules } from '../mapping/compiled-resource.js';
import type { FieldRule } from '../mapping/mapping-schema.js';
import { enumToV1 } from './convert-enum.js';
import { type Json, camelCase, getPath, isObject } from '../json/json-path.js';
import { UID_RULE_TEXT, UIDP } from '../uidp/uidp.js';
import { isTimestamp } from './timestamp.js';

// The platform SDK's validation rules; their text is what the v2 API's errors quote (and their
// patterns what the OpenAPI document states).
export const RULES: Record<NonNullable<FieldRule['rule']>, { pattern: RegExp; text: string }> = {
  name: { pattern: /^[a-z0-9 ._-]{1,}$/, text: 'must match "^[a-z0-9 ._-]{1,}$"' },
  description: { pattern: /^[\S ]{0,512}$/, text: 'must match "^[\\S ]{0,512}$"' },
  uid: { pattern: UIDP, text: UID_RULE_TEXT },
};

const TYPES: Record<NonNullable<FieldRule['type']>, [(v: unknown) => boolean, string]> = {
  string: [(v) => typeof v === 'string', 'must be a string'],
  bool: [(v) => typeof v === 'boolean', 'must be true or false'],
  int: [(v) => Number.isInteger(v) || (typeof v === 'string' && /^-?\d+$/.test(v)), 'must be an integer'],
  object: [isObject, 'must be an object'],
  map: [isObject, 'must be an object'],
  list: [Array.isArray, 'must be a list'],
  timestamp: [isTimestamp, 'must be an RFC 3339 timestamp'],
};

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/**
 * The violations of a create body (keys already normalized) against the resource's writable fields: required, type, pattern
 * and enum checks. Returns every violation (v2 names every failed field), or only the fields of the
 * wrong type when there are any; never throws. An update gives the fields it `changing`: only they
 * are checked.
 */
export function validateInput(body: Json, resource: CompiledResource, changing?: ReadonlySet<string>): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const mistyped: FieldViolation[] = [];
  for (const [name, c] of resource.rules.inByV2) {
    if (changing && !changing.has(name)) continue;
    const { rule } = c;
    const v = body[name];
    const ruleText = rule.rule ? RULES[rule.rule] : undefined;
    if (isEmpty(v)) {
      // A missing name reads as the pattern it fails (as v2's own example does); anything else is "required".
      if (rule.required) violations.push({ field: name, description: rule.rule === 'name' && ruleText ? `${name} ${ruleText.text}` : `${name} is required` });
      continue;
    }
    const type = rule.type ? TYPES[rule.type] : undefined;
    if (type && !type[0](v)) {
      mistyped.push({ field: name, description: `${name} ${type[1]}` });
      continue;
    }
    const unnamed = outsideValues(name, v, c);
    if (unnamed.length > 0) {
      mistyped.push(...unnamed);
      continue;
    }
    // a PATCH may change one part of an object field (its mask `oidc.clientSecret`)
    if (c.children && isObject(v) && !changing) violations.push(...nestedRequired(name, v, c.children));
    if (ruleText && typeof v === 'string' && !ruleText.pattern.test(v)) {
      violations.push({ field: name, description: `${name} ${ruleText.text}` });
      continue;
    }
    if (rule.enum) {
      const values = Array.isArray(v) ? v : [v];
      const bad = values.find((x) => enumToV1(x, rule.enum ?? {}, resource.capabilities) === undefined);
      if (bad !== undefined) {
        const what = rule.enum.table === 'capabilities' ? 'capability' : 'value';
        violations.push({ field: name, description: `unknown ${what} ${JSON.stringify(bad)}` });
      }
    }
  }
  const changed = (v: FieldViolation) => !changing || changing.has(v.field);
  violations.push(...oneOfViolations(body, resource.mapping.requiredOneOf).filter(changed));
  mistyped.push(...mistypedReadOnly(body, resource.rules).filter(changed));
  // a body with a field of the wrong type cannot be read as the resource at all (as the service's
  // gateway reads it): that alone is said, not what its other fields lack
  return mistyped.length > 0 ? mistyped : violations;
}

/**
 * A field the server fills is ignored on input, but one of the wrong type is refused, as the
 * service's gateway refuses a body it cannot read as the resource (a `createTime` that is no time).
 */
function mistypedReadOnly(body: Json, rules: CompiledRules): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const { rule, v2 } of rules.all) {
    const name = v2[0] as string;
    if (!rule.output || v2.length !== 1 || !rule.type || isEmpty(body[name])) continue;
    const [fits, text] = TYPES[rule.type];
    if (!fits(body[name])) out.push({ field: name, description: `${name} ${text}` });
  }
  return out;
}

/**
 * A string field the mapping gives its names (`values`: an enum a later proto names) holding none of
 * them, nested ones too: the service's reader cannot read it, and names the field as it is keyed.
 */
function outsideValues(key: string, v: Json[string], c: CompiledRule): FieldViolation[] {
  const { values } = c.rule;
  if (values && typeof v === 'string' && !values.includes(v)) return [{ field: key, description: `invalid value for enum field ${key}: ${JSON.stringify(v)}` }];
  if (!c.children || !isObject(v)) return [];
  return [...c.children.inByV2].flatMap(([child, cc]) => (isEmpty(v[child]) ? [] : outsideValues(child, v[child], cc)));
}

/** The required fields of an object field that is there (an identity provider's OIDC issuer and client id), named by their dotted path. */
function nestedRequired(name: string, value: Json, children: CompiledRules): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const [child, c] of children.inByV2)
    if (c.rule.required && isEmpty(value[child])) out.push({ field: `${name}.${child}`, description: `${name}.${child} is required` });
  return out;
}

/** Exactly one member of each required group (a dotted group only when its parent object is there). */
function oneOfViolations(body: Json, groups: readonly (readonly string[])[]): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const group of groups) {
    const parent = group[0]?.includes('.') ? group[0].slice(0, group[0].lastIndexOf('.')) : '';
    const holder = parent === '' ? body : getPath(body, parent.split('.'));
    if (parent !== '' && !isObject(holder)) continue;
    const present = group.filter((path) => !isEmpty(getPath(body, path.split('.'))));
    if (present.length === 1) continue;
    const names = group.join(', ');
    if (present.length === 0) out.push({ field: group[0] as string, description: `exactly one of ${names} is required` });
    else for (const field of present) out.push({ field, description: `only one of ${names} may be set` });
  }
  return out;
}

/** A request body as a JSON object (absent is empty), or undefined when it is something else. */
export function objectBody(raw: unknown): Json | undefined {
  if (raw === undefined || raw === null) return {};
  return isObject(raw) ? raw : undefined;
}

/** Keys of a body, with proto (snake) names read as their json names. */
export function normalizeKeys(body: Json): Json {
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [camelCase(k), v]));
}
