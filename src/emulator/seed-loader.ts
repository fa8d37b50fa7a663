import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { Access } from './access.js';
import { BUILT_IN_ROLES } from './capabilities.js';
import type { Ctx } from './collection.js';
import { COLLECTIONS } from './collections/index.js';
import { V1Error } from './grpc-status.js';
import { Query } from './query.js';
import { type Store, emptyStore } from './store.js';
import { stampCreated } from './record-times.js';
import { parseTimestamp } from './timestamp.js';
import { isUidp, parentOf } from '../uidp/uidp.js';

const v1Record = z.record(z.string(), z.unknown());

/** A seed file: the v1 collections (arrays of v1-shaped records with their uids) and static tokens. */
export const SeedSchema = z.strictObject({
  groups: z.array(v1Record).optional(),
  identities: z.array(v1Record).optional(),
  roles: z.array(v1Record).optional(),
  rolebindings: z.array(v1Record).optional(),
  identityProviders: z.array(v1Record).optional(),
  account_associations: z.array(v1Record).optional(),
  group_invites: z.array(v1Record).optional(),
  repos: z.array(v1Record).optional(),
  tags: z.array(v1Record).optional(),
  advisories: z.array(v1Record).optional(),
  tokens: z.record(z.string().min(1), z.string()).optional(),
});

export type Seed = z.infer<typeof SeedSchema>;

export class SeedError extends Error {
  override name = 'SeedError';
}

/** A store holding the built-in roles and the seed's records, loaded through the same code as v1 creates. */
export function storeFromSeed(seed: Seed, now: number): Store {
  const store = emptyStore();
  for (const role of BUILT_IN_ROLES) {
    store.roles.set(role.id, { ...role, capabilities: [...role.capabilities] });
    stampCreated(store, 'roles', role.id, now);
  }
  const ctx: Ctx = { store, access: new Access({ kind: 'superuser' }, store), now, seeding: true };
  const noQuery = new Query({});

  for (const def of COLLECTIONS) {
    const records = seed[def.name] ?? [];
    const keyField = def.name === 'account_associations' ? 'group' : 'id';
    // Parents first: a group's parent group must exist before it does.
    const ordered = records.map((record, index) => ({ record, index })).sort((a, b) => depth(a.record[keyField]) - depth(b.record[keyField]));
    for (const { record, index } of ordered) {
      const where = `${def.name}[${index}]`;
      const key = record[keyField];
      if (typeof key !== 'string' || !isUidp(key)) {
        throw new SeedError(`${where}: "${keyField}" must be a uid (40 hex characters, then /16 hex per level), got ${JSON.stringify(key)}`);
      }
      const map = store[def.name] as Map<string, unknown>;
      if (map.has(key)) throw new SeedError(`${where}: duplicate ${keyField} "${key}"`);
      const parent = keyField === 'group' ? key : parentOf(key) === '/' ? '' : parentOf(key);
      let built: Record<string, unknown>;
      try {
        built = def.create(def.seedBody ? def.seedBody(record, ctx) : record, parent, ctx, noQuery);
      } catch (err) {
        if (err instanceof V1Error) throw new SeedError(`${where} (${key}): ${err.message}`);
        throw err;
      }
      if (keyField === 'id') built.id = key;
      for (const field of def.timestampFields ?? []) {
        const value = record[field];
        if (value === undefined) continue;
        const ms = typeof value === 'string' ? parseTimestamp(value) : undefined;
        if (ms === undefined) throw new SeedError(`${where} (${key}): ${field} must be an RFC 3339 timestamp`);
        built[field] = ms;
      }
      map.set(key, built);
      stampCreated(store, def.name, key, now);
    }
  }

  for (const [token, identity] of Object.entries(seed.tokens ?? {})) {
    if (!store.identities.has(identity)) {
      throw new SeedError(`tokens["${token.slice(0, 4)}…"]: identity "${identity}" is not in the seed`);
    }
    store.tokens.set(token, identity);
  }
  return store;
}

function depth(key: unknown): number {
  return typeof key === 'string' ? key.split('/').length : 0;
}

/** Reads and validates a seed file; every problem is a SeedError naming the file and the record. */
export function loadSeedFile(path: string, now: number): Store {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new SeedError(`seed file ${path}: ${(err as Error).message}`);
  }
  const result = SeedSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const at = issue?.path.length ? issue.path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('') : '(top level)';
    throw new SeedError(`seed file ${path}: ${at}: ${issue?.message ?? 'invalid'}`);
  }
  try {
    return storeFromSeed(result.data as Seed, now);
  } catch (err) {
    if (err instanceof SeedError) throw new SeedError(`seed file ${path}: ${err.message}`);
    throw err;
  }
}
