import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { parseOrderBy } from './order-by.js';
import { pathKind } from './rule-paths.js';
import { compileRules } from './compile-rules.js';
import type { CapabilityTable, CompiledResource, CompiledRules, MetaFields } from './compiled-resource.js';
import { MappingSchema } from './mapping-schema.js';

export const DEFAULT_MAPPINGS_DIR = fileURLToPath(new URL('../../mappings', import.meta.url));

export class MappingError extends Error {
  override name = 'MappingError';
}

const CapabilitiesSchema = z.strictObject({
  capabilities: z.record(z.string().regex(/^[a-z][a-z_.]*$/), z.string().regex(/^CAP_[A-Z0-9_]+$/)),
});

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return /\.ya?ml$/.test(name) ? [path] : [];
    });
}

function readYaml(path: string, dir: string): unknown {
  try {
    return parseYaml(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new MappingError(`mapping ${relative(dir, path)}: ${(err as Error).message.split('\n')[0]}`);
  }
}

function problem(file: string, error: z.ZodError): MappingError {
  const issue = error.issues[0];
  const at = issue?.path.length ? issue.path.join('.') : '(top level)';
  return new MappingError(`mapping ${file}: ${at}: ${issue?.message ?? 'invalid'}`);
}

/**
 * Reads every mapping file below `dir`, validates it, and compiles it once. A wrong file stops
 * start-up with a MappingError naming the file and the field.
 */
function metaFieldsOf(file: string, rules: CompiledRules): MetaFields | undefined {
  const meta: MetaFields = {};
  for (const c of rules.all) {
    const kind = c.rule.meta;
    if (!kind) continue;
    if (c.v2.length !== 1 || c.v1.length !== 1 || c.rule.type !== 'timestamp' || !c.rule.output) {
      throw new MappingError(`mapping ${file}: fields: "${c.rule.v2}": a meta field must be a top-level output timestamp`);
    }
    meta[kind] = c.v2[0] as string;
  }
  if (!meta.created && !meta.updated) return undefined;
  const own = rules.all.find((c) => c.rule.v2 === 'createTime' && !c.rule.meta && c.rule.type === 'timestamp');
  if (!meta.created && own) meta.since = own.v1;
  return meta;
}

function checkHydrate(resource: CompiledResource, all: readonly CompiledResource[]): void {
  for (const h of resource.mapping.hydrate) {
    const from = all.find((r) => r.mapping.resource === h.from);
    if (!from) throw new MappingError(`mapping ${resource.file}: hydrate: "${h.from}" is not a resource`);
    for (const field of h.fields) {
      if (!from.rules.all.some((c) => c.rule.v2 === field)) {
        throw new MappingError(`mapping ${resource.file}: hydrate: "${field}" is not a field of ${h.from}`);
      }
    }
  }
}

export function loadMappings(dir: string = DEFAULT_MAPPINGS_DIR): CompiledResource[] {
  const files = yamlFiles(dir);
  const capabilityFile = files.find((f) => f.endsWith('capabilities.yaml'));
  if (!capabilityFile) throw new MappingError(`mapping directory ${dir}: capabilities.yaml is missing`);
  const caps = CapabilitiesSchema.safeParse(readYaml(capabilityFile, dir));
  if (!caps.success) throw problem(relative(dir, capabilityFile), caps.error);
  const capabilities: CapabilityTable = {
    toV2: new Map(Object.entries(caps.data.capabilities)),
    toV1: new Map(Object.entries(caps.data.capabilities).map(([v1, v2]) => [v2, v1])),
  };

  const resources: CompiledResource[] = [];
  for (const path of files.filter((f) => f !== capabilityFile)) {
    const file = relative(dir, path);
    const parsed = MappingSchema.safeParse(readYaml(path, dir));
    if (!parsed.success) throw problem(file, parsed.error);
    const mapping = parsed.data;
    const cut = mapping.v2.path.lastIndexOf('/');
    const segment = mapping.v2.path.slice(cut + 1);
    if (segment !== mapping.resource) {
      throw new MappingError(`mapping ${file}: v2.path: must end in the resource name "${mapping.resource}"`);
    }
    const clash = resources.find((r) => r.mapping.resource === mapping.resource);
    if (clash) throw new MappingError(`mapping ${file}: resource: "${mapping.resource}" is also defined in ${clash.file}`);
    if (!mapping.fields.some((f) => f.v2 === 'uid')) throw new MappingError(`mapping ${file}: fields: a "uid" field is required`);
    for (const key of mapping.list.sortable) {
      if (!mapping.fields.some((f) => f.v2 === key) && key !== 'uid') {
        throw new MappingError(`mapping ${file}: list.sortable: "${key}" is not a field`);
      }
    }
    const order = parseOrderBy(undefined, mapping.list);
    if (!order.ok) throw new MappingError(`mapping ${file}: list.defaultOrder: ${order.violation.description}`);
    const rules = compileRules(mapping.fields);
    for (const member of mapping.oneofs.flat()) {
      if (pathKind(rules, member.split('.')) !== 'input') throw new MappingError(`mapping ${file}: oneofs: "${member}" is not a writable field`);
    }
    resources.push({
      mapping,
      file,
      prefix: mapping.v2.path.slice(0, cut),
      segment,
      rules,
      capabilities,
      filters: new Map(mapping.list.filters.map((f) => [f.param, f])),
      meta: metaFieldsOf(file, rules),
    });
  }
  if (resources.length === 0) throw new MappingError(`mapping directory ${dir}: no resource mappings`);
  for (const r of resources) checkHydrate(r, resources);
  return resources;
}
