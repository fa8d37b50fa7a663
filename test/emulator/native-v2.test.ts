import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessSetupFlow } from '../support/access-setup-flow.js';
import { aipError, badRequest, preconditionFailure } from '../support/aip.js';
import { type Answer, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, A_TEAM, ALICE, B, BOB, CAROL, childUid, DEV_TOKEN, REPO_A, rootUid, TOKENS, twoTenantSeed } from '../support/fixtures.js';

const BULK = 61;
const T0 = Date.parse('2026-06-01T10:00:00.000Z');

function seed() {
  const s = twoTenantSeed();
  for (let i = 0; i < BULK; i += 1) s.groups?.push({ id: childUid(A_TEAM, `bulk-${i}`), name: `g-${String(i % 9)}`, description: `bulk ${i}` });
  // a managed role beside the built-in ones: a 40-hex uid with no parent
  s.roles?.push({ id: rootUid('managed-auditor'), name: 'auditor', description: 'Auditor (managed)', capabilities: ['groups.list'] });
  return s;
}

describe('the emulator serves v2beta1 natively, over the same store as v1', () => {
  let h: EmulatorHarness;
  let clock = T0;
  const v2 = (method: string, path: string, token: string = DEV_TOKEN, body?: unknown): Promise<Answer> =>
    h.v2(method, path, { token, ...(body === undefined ? {} : { body }) });
  beforeAll(async () => {
    h = await startHarness({ seed: seed(), now: () => clock });
  });
  afterAll(() => h.close());

  it('listens on its own port, beside v1', () => {
    expect(h.v2url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(h.v2url).not.toBe(h.url);
  });

  it('a group created over v1 is read over v2, and one created over v2 is listed over v1', async () => {
    clock = T0 + 1000;
    const v1 = await h.dev('POST', `/iam/v1/groups/${B}`, { body: { name: 'from-v1', description: 'made over v1' } });
    expect(v1.status).toBe(200);
    const read = await v2('GET', `/iam/v2beta1/groups/${v1.body.id}`);
    expect(read.status).toBe(200);
    // the store keeps times v1 never shows
    expect(read.body).toEqual({
      uid: v1.body.id,
      name: 'from-v1',
      description: 'made over v1',
      resourceLimits: {},
      verified: false,
      createTime: '2026-06-01T10:00:01.000Z',
      updateTime: '2026-06-01T10:00:01.000Z',
    });
    const made = await v2('POST', `/iam/v2beta1/groups/${B}`, DEV_TOKEN, { name: 'from-v2' });
    expect(made.status).toBe(200);
    const listed = await h.dev('GET', `/iam/v1/groups?uidp.children_of=${B}`);
    expect(listed.body.items.map((g: { name: string }) => g.name).sort()).toEqual(['from-v1', 'from-v2']);
    // a v1 full-replacement PUT moves the update time only
    clock = T0 + 5000;
    await h.dev('PUT', `/iam/v1/groups/${v1.body.id}`, { body: { name: 'from-v1', description: 'changed over v1' } });
    const after = await v2('GET', `/iam/v2beta1/groups/${v1.body.id}`);
    expect(after.body).toMatchObject({ description: 'changed over v1', createTime: '2026-06-01T10:00:01.000Z', updateTime: '2026-06-01T10:00:05.000Z' });
  });

  it("runs the access-setup flow as tenant A's owner, with the same case suite as the proxy", async () => {
    await accessSetupFlow((method, path, body) => v2(method, path, TOKENS.alice, body));
    // step 3 with v2's advice to combine name and uidp.descendants_of finds the managed role too
    const roles = await v2('GET', `/iam/v2beta1/roles?uidp.descendants_of=${A}&name=viewer`, TOKENS.alice);
    expect(roles.body.roles.map((r: { name: string }) => r.name)).toEqual(['viewer']);
  });

  it('walks a list with native cursors at several page sizes, both ways, with totals and skip', async () => {
    const all = await v2('GET', `/iam/v2beta1/groups?uidp.children_of=${A_TEAM}&page_size=200&order_by=name,uid`);
    expect(all.body.totalCount).toBe(String(BULK + 1));
    const expected = (all.body.groups as { uid: string; name: string }[]).map((g) => g.uid);
    const names = (all.body.groups as { name: string }[]).map((g) => g.name);
    expect(names).toEqual([...names].sort());
    for (const size of [1, 7, 50]) {
      for (const desc of [false, true]) {
        const seen: string[] = [];
        let token = '';
        for (let i = 0; i < 200; i += 1) {
          const p = await v2(
            'GET',
            `/iam/v2beta1/groups?uidp.children_of=${A_TEAM}&page_size=${size}&order_by=name${desc ? '%20desc' : ''}${token ? `&page_token=${token}` : ''}`,
          );
          expect(p.status).toBe(200);
          expect(p.body.groups.length).toBeLessThanOrEqual(size);
          seen.push(...p.body.groups.map((g: { uid: string }) => g.uid));
          token = p.body.nextPageToken;
          if (token === '') break;
        }
        expect(seen).toEqual(desc ? [...expected].reverse() : expected);
      }
    }
    const skipped = await v2('GET', `/iam/v2beta1/groups?uidp.children_of=${A_TEAM}&page_size=5&skip=10&order_by=name`);
    expect(skipped.body.skipped).toBe(10);
    expect(skipped.body.groups.map((g: { uid: string }) => g.uid)).toEqual(expected.slice(10, 15));
    const defaults = await v2('GET', `/iam/v2beta1/groups?uidp.children_of=${A_TEAM}`);
    expect(defaults.body.groups).toHaveLength(50);
  });

  it('refuses bad list parameters and foreign page tokens with AIP-193 errors', async () => {
    const base = `/iam/v2beta1/groups?uidp.children_of=${A_TEAM}`;
    expect((await v2('GET', `${base}&page_size=-1`)).body).toEqual(
      aipError(3, 'Invalid argument: page_size: must not be negative', 'INVALID_ARGUMENT', 'iam.chainguard.dev', [
        badRequest([{ field: 'page_size', description: 'must not be negative' }]),
      ]),
    );
    const huge = await v2('GET', `${base}&skip=2147483648`);
    expect([huge.status, huge.body.details?.[1]?.fieldViolations]).toEqual([400, [{ field: 'skip', description: 'is out of range (int32)' }]]);
    expect((await v2('GET', `${base}&order_by=colour`)).body).toEqual(
      aipError(3, /^Invalid argument: order_by: cannot sort by "colour"/, 'INVALID_ARGUMENT', 'iam.chainguard.dev', [
        badRequest([{ field: 'order_by', description: 'cannot sort by "colour"; sortable fields: uid, name, createTime, updateTime' }]),
      ]),
    );
    const first = await v2('GET', `${base}&page_size=2`);
    const other = await v2('GET', `/iam/v2beta1/groups?uidp.children_of=${A}&page_size=2&page_token=${first.body.nextPageToken}`);
    expect(other.status).toBe(400);
    expect(other.body.details[1].fieldViolations[0].field).toBe('page_token');
    expect((await v2('GET', `${base}&page_token=garbage`)).status).toBe(400);
    expect((await v2('GET', '/iam/v2beta1/roleBindings?name=x')).body.message).toBe('Invalid argument: name: roleBindings have no name to filter on');
  });

  it('answers the documented v2 errors: a bad group create names every failed field; a group with child repos is not deleted', async () => {
    expect((await v2('POST', `/iam/v2beta1/groups/${A}`, DEV_TOKEN, {})).body).toEqual(
      aipError(3, 'Invalid argument: name: must match the pattern ^[a-z0-9 ._-]{1,}$', 'INVALID_ARGUMENT', 'iam.chainguard.dev', [
        badRequest([{ field: 'name', description: 'must match the pattern ^[a-z0-9 ._-]{1,}$' }]),
      ]),
    );
    const bad = await v2('POST', `/iam/v2beta1/identities/${A}`, DEV_TOKEN, { name: 'Bad Name', claimMatch: { issuer: 'x' } });
    expect(bad.body.details[1].fieldViolations.map((v: { field: string }) => v.field)).toEqual(['name', 'claimMatch.subject']);
    // a field of another JSON type is refused as the gateway reads bodies (protojson), on create and update
    const mistyped = await v2('POST', `/iam/v2beta1/identities/${A}`, DEV_TOKEN, { name: 'typed', company: [1] });
    expect([mistyped.status, mistyped.body.details?.[1]?.fieldViolations?.[0]?.field]).toEqual([400, 'company']);
    const patched = await v2('PATCH', `/iam/v2beta1/groups/${A_TEAM}`, DEV_TOKEN, { verified: 'yes' });
    expect([patched.status, patched.body.details?.[1]?.fieldViolations?.[0]?.description]).toEqual([
      400,
      'cannot read field chainguard.platform.iam.v2beta1.Group.verified from JSON: expected boolean, got "yes"',
    ]);
    expect((await v2('DELETE', `/iam/v2beta1/groups/${A}`)).body).toEqual(
      aipError(9, 'Precondition failed: cannot delete group with child repos', 'FAILED_PRECONDITION', 'iam.chainguard.dev', [
        preconditionFailure([{ type: 'RESOURCE_NOT_EMPTY', description: 'cannot delete group with child repos' }]),
      ]),
    );
  });

  it('checks permission before existence: another tenant cannot tell a uid that exists from one that does not', async () => {
    const absent = childUid(A, 'never-made');
    for (const [method, path] of [
      ['GET', `/iam/v2beta1/groups/${A_TEAM}`],
      ['GET', `/iam/v2beta1/groups/${absent}`],
      ['DELETE', `/iam/v2beta1/groups/${A_TEAM}`],
      ['DELETE', `/iam/v2beta1/groups/${absent}`],
      ['PATCH', `/iam/v2beta1/groups/${A_TEAM}`],
      ['PATCH', `/iam/v2beta1/groups/${absent}`],
      ['POST', `/iam/v2beta1/groups/${A_TEAM}`],
      ['POST', `/iam/v2beta1/groups/${absent}`],
    ] as const) {
      const res = await v2(method, path, TOKENS.bob, method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe(7);
    }
    // a caller who may see the scope learns that a uid is absent
    expect((await v2('GET', `/iam/v2beta1/groups/${absent}`, TOKENS.alice)).status).toBe(404);
    // a binding may only name an identity the caller can see
    const foreign = await v2('POST', `/iam/v2beta1/roleBindings/${A}`, TOKENS.alice, { identityUid: BOB, roleUid: rootUid('managed-auditor') });
    expect(foreign.body.details[1].fieldViolations).toEqual([{ field: 'identityUid', description: 'no such identity' }]);
  });

  it('PATCHes with a field mask or the present keys, moving updateTime only', async () => {
    clock = T0 + 60_000;
    const made = await v2('POST', `/iam/v2beta1/identities/${A_TEAM}`, TOKENS.alice, {
      name: 'bot',
      description: 'before',
      claimMatch: { issuer: 'https://i', subject: 's' },
    });
    const uid = made.body.uid as string;
    clock = T0 + 61_000;
    const masked = await v2('PATCH', `/iam/v2beta1/identities/${uid}?update_mask=description`, TOKENS.alice, { description: 'after', name: 'ignored' });
    expect(masked.body).toMatchObject({ name: 'bot', description: 'after', createTime: '2026-06-01T10:01:00.000Z', updateTime: '2026-06-01T10:01:01.000Z' });
    const nested = await v2('PATCH', `/iam/v2beta1/identities/${uid}`, TOKENS.alice, { claim_match: { subject: 's2' } });
    expect(nested.body.claimMatch).toEqual({ issuer: 'https://i', subject: 's2' });
    // setting another member of the relationship oneof replaces it
    const swapped = await v2('PATCH', `/iam/v2beta1/identities/${uid}`, TOKENS.alice, { servicePrincipal: 'SERVICE_PRINCIPAL_INGESTER' });
    expect(swapped.body.servicePrincipal).toBe('SERVICE_PRINCIPAL_INGESTER');
    expect(swapped.body.claimMatch).toBeUndefined();
    const v1 = await h.dev('GET', `/iam/v1/identities?id=${uid}`);
    expect(v1.body.items[0]).toMatchObject({ servicePrincipal: 'INGESTER', description: 'after' });
    expect((await v2('PATCH', `/iam/v2beta1/identities/${uid}`, TOKENS.alice, { colour: 'red' })).body.details[1].fieldViolations).toEqual([
      { field: 'colour', description: 'unknown field "colour"' },
    ]);
  });

  it('serves every resource: roles with v2 capability names, managed roles from the seed, repos, tags, advisories, invites', async () => {
    const managed = await v2('GET', `/iam/v2beta1/roles/${rootUid('managed-auditor')}`, TOKENS.carol);
    expect(managed.body).toMatchObject({ name: 'auditor', capabilities: ['CAP_IAM_GROUPS_LIST'] });
    const repo = await v2('GET', `/registry/v2beta1/repos/${REPO_A}`);
    expect(repo.body).toMatchObject({ uid: REPO_A, name: 'nginx', catalogTier: 'CATALOG_TIER_APPLICATION', createTime: '2025-10-01T00:00:00.000Z' });
    expect(repo.body.updateTime).toBe(repo.body.createTime);
    // v2 hides referrer, dated and epoch tags unless asked
    const tags = await v2('GET', `/registry/v2beta1/tags?uidp.children_of=${REPO_A}`);
    expect(tags.body.tags.map((t: { name: string }) => t.name)).toEqual(['latest']);
    const allTags = await v2('GET', `/registry/v2beta1/tags?uidp.children_of=${REPO_A}&include_referrers=true&include_dates=true&include_epochs=true`);
    expect(allTags.body.totalCount).toBe('4');
    const adv = await v2('GET', `/vulnerabilities/v2beta1/advisories?uidp.descendants_of=${A}&query=LIBZ&event_review_states=REVIEW_STATE_APPROVED`);
    expect(adv.body.advisories).toHaveLength(1);
    expect(adv.body.advisories[0]).toMatchObject({ advisoryId: 'CGA-2', legacyAdvisoryId: 'LEG-2', events: [{ reviewState: 'REVIEW_STATE_APPROVED' }] });
    const invite = await v2('POST', `/iam/v2beta1/groupInvites/${A}`, TOKENS.alice, {
      roleUid: rootUid('managed-auditor'),
      ttl: '3600s',
      email: 'x@example.com',
    });
    expect(invite.body).toMatchObject({ roleUid: rootUid('managed-auditor'), email: 'x@example.com', code: expect.any(String), keyId: expect.any(String) });
    const readBack = await v2('GET', `/iam/v2beta1/groupInvites/${invite.body.uid}`, TOKENS.alice);
    expect(readBack.body.code).toBeUndefined();
    expect((await v2('PATCH', `/iam/v2beta1/groupInvites/${invite.body.uid}`, TOKENS.alice, {})).body).toEqual(
      aipError(12, 'Unimplemented: Method Not Allowed', 'UNIMPLEMENTED'),
    );
    // identities listed by relationship type; user identities at the root stay private
    const sp = await v2('GET', `/iam/v2beta1/identities?relationship_type=RELATIONSHIP_TYPE_SERVICE_PRINCIPAL&uidp.descendants_of=${B}`);
    expect(sp.body.identities.map((i: { uid: string }) => i.uid)).toEqual([BOB]);
    const cm = await v2('GET', `/iam/v2beta1/identities?relationship_type=RELATIONSHIP_TYPE_CLAIM_MATCH&uidp.descendants_of=${B}`);
    expect(cm.body.identities).toEqual([]);
    expect((await v2('GET', `/iam/v2beta1/identities/${ALICE}`, TOKENS.carol)).status).toBe(403);
    expect((await v2('GET', `/iam/v2beta1/identities/${CAROL}`, TOKENS.carol)).status).toBe(200);
  });

  it('is off with v2: false (a v1-only backend)', async () => {
    const v1only = await startHarness({ v2: false });
    try {
      expect(v1only.emu.v2Url).toBeUndefined();
      expect((await v1only.dev('GET', '/iam/v2beta1/groups')).status).toBe(404);
    } finally {
      await v1only.close();
    }
  });
});

describe('the emulator stays independent of the translation code', () => {
  it('imports from the proxy only errors/, uidp/ and the generated protobuf code (an allow-list), and never reads mappings/', () => {
    const src = join(import.meta.dirname, '../../src');
    const root = join(src, 'emulator');
    // net/: socket plumbing (telling h2c from HTTP/1.1), no v2 semantics
    const allowed = ['emulator', 'errors', 'uidp', 'gen', 'net'].map((folder) => join(src, folder) + sep);
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts')) files.push(p);
      }
    };
    walk(root);
    expect(files.length).toBeGreaterThan(30);
    const outside: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      // every relative module it loads (static imports and re-exports, and dynamic imports)
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
        const target = resolve(dirname(file), m[1] as string);
        if (!allowed.some((folder) => target.startsWith(folder))) outside.push(`${relative(src, file)} → ${relative(src, target)}`);
      }
      if (/mappings\//.test(text)) outside.push(`${relative(src, file)} → mappings/`);
    }
    expect(outside).toEqual([]);
  });
});
