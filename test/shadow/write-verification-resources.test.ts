// One case suite, every resource v2 writes: each write, served by translation and natively, is
// read back and checked; a healthy backend shows no difference on any of them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/load-settings.js';
import { buildProxyApp } from '../../src/app/build-proxy-app.js';
import type { WriteRouteReport } from '../../src/shadow/write-book.js';
import { type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { A, A_TEAM, CAROL, CUSTOM_ROLE_A, DEV_TOKEN } from '../support/fixtures.js';
import { settingsFrom } from '../support/proxy-harness.js';
import { until } from '../support/until.js';

const ADMIN = 'admin-token-for-write-verification-resources';

interface WriteCase {
  resource: string;
  base: string;
  /** where a create goes, and its body (made per side: names are unique) */
  parent: string;
  create: (n: number) => object;
  /** an update: its query and body (none: the resource has no update) */
  update?: { query: string; body: (n: number) => object };
  /** paths the two sides show differently by design (times v1 does not keep) */
  ignore: string[];
}

const TIMES = ['createTime', 'updateTime'];

function cases(viewer: string): WriteCase[] {
  return [
    {
      resource: 'groups',
      base: '/iam/v2beta1/groups',
      parent: A,
      create: (n) => ({ name: `verified-${n}`, description: 'made' }),
      update: { query: '?update_mask=description', body: (n) => ({ description: `changed ${n}` }) },
      ignore: TIMES,
    },
    {
      resource: 'identities',
      base: '/iam/v2beta1/identities',
      parent: A_TEAM,
      create: (n) => ({ name: `bot-${n}`, description: 'bot', claimMatch: { issuer: 'https://gh', subject: `repo:${n}` } }),
      update: { query: '', body: (n) => ({ description: `changed ${n}` }) },
      ignore: [],
    },
    {
      resource: 'roles',
      base: '/iam/v2beta1/roles',
      parent: A,
      create: (n) => ({ name: `auditor-${n}`, capabilities: ['CAP_IAM_GROUPS_LIST', 'CAP_ADVISORIES_LIST'] }),
      update: { query: '?update_mask=capabilities', body: () => ({ capabilities: ['CAP_IAM_GROUPS_LIST'] }) },
      ignore: TIMES,
    },
    {
      resource: 'roleBindings',
      base: '/iam/v2beta1/roleBindings',
      parent: A_TEAM,
      create: (n) => ({ identityUid: CAROL, roleUid: n % 2 === 0 ? CUSTOM_ROLE_A : viewer }),
      update: { query: '?update_mask=role_uid', body: (n) => ({ roleUid: n % 2 === 0 ? viewer : CUSTOM_ROLE_A }) },
      ignore: [],
    },
    {
      resource: 'identityProviders',
      base: '/iam/v2beta1/identityProviders',
      parent: A,
      create: (n) => ({ name: `sso-${n}`, defaultRole: viewer, oidc: { issuer: 'https://sso', clientId: `c${n}`, clientSecret: 'sekret' } }),
      update: { query: '?update_mask=oidc.client_id', body: (n) => ({ oidc: { clientId: `changed-${n}` } }) },
      ignore: TIMES,
    },
    {
      resource: 'groupInvites',
      base: '/iam/v2beta1/groupInvites',
      parent: A,
      create: (n) => ({ roleUid: viewer, ttl: '3600s', email: `new-${n}@x.example`, singleUse: true }),
      ignore: [],
    },
  ];
}

describe('write verification, resource by resource, both sides', () => {
  let h: EmulatorHarness;
  let app: FastifyInstance;
  let viewer: string;

  beforeAll(async () => {
    h = await startHarness();
    viewer = (await h.dev('GET', '/iam/v1/roles?name=viewer')).body.items[0].id;
    const routes = cases(viewer)
      .map(
        (c) =>
          `  - resource: ${c.resource}\n    operations: [create, update, delete]\n    native: 50\n    verifyWrites: 100\n    ignore: [${c.ignore.join(', ')}]\n`,
      )
      .join('')
      .replace(/(resource: groupInvites\n {4}operations: )\[create, update, delete\]/, '$1[create, delete]');
    const path = join(mkdtempSync(join(tmpdir(), 'v2proxy-verify-all-')), 'rollout.yaml');
    writeFileSync(path, `stickyBy: header:x-caller\nroutes:\n${routes}`);
    const settings = settingsFrom({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: path, ADMIN_TOKEN: ADMIN, VERIFY_DELAY_MS: '0' });
    app = await buildProxyApp(resolveSettings(settings, h.url, 0), { watchRollout: false });
  });
  afterAll(async () => {
    await app?.close();
    await h?.close();
  });

  const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, caller: string, body?: object) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${DEV_TOKEN}`, 'x-caller': caller }, ...(body ? { payload: body } : {}) });
  const writes = async () =>
    (await app.inject({ method: 'GET', url: '/admin/diff.json', headers: { authorization: `Bearer ${ADMIN}` } })).json().writes as WriteRouteReport[];
  const ended = (resource: string, n: number) =>
    until(
      writes,
      (ws) => ws.filter((w) => w.resource === resource).reduce((t, w) => t + w.verified + w.errors + w.unverified + w.skipped, 0) >= n,
      `${n} ${resource} writes verified`,
    );

  it.each(['groups', 'identities', 'roles', 'roleBindings', 'identityProviders', 'groupInvites'])(
    '%s: creates, updates and deletes through either side match on every check',
    async (resource) => {
      const c = cases(viewer).find((x) => x.resource === resource) as WriteCase;
      const sides = new Set<string>();
      let n = 0;
      for (let i = 0; i < 10; i += 1) {
        const caller = `${resource}-caller-${i}`;
        const made = await send('POST', `${c.base}/${c.parent}`, caller, c.create(i));
        expect(made.statusCode, `${made.headers['x-v2proxy-backend']} ${made.body}`).toBe(200);
        sides.add(String(made.headers['x-v2proxy-backend']));
        n += 1;
        await ended(resource, n);
        const uid = made.json().uid as string;
        if (c.update) {
          const changed = await send('PATCH', `${c.base}/${uid}${c.update.query}`, caller, c.update.body(i));
          expect(changed.statusCode, changed.body).toBe(200);
          n += 1;
          await ended(resource, n);
        }
        expect((await send('DELETE', `${c.base}/${uid}`, caller)).statusCode).toBe(200);
        n += 1;
        await ended(resource, n);
      }
      expect(sides).toEqual(new Set(['native', 'translate']));
      const ws = (await writes()).filter((w) => w.resource === resource);
      expect(ws.flatMap((w) => w.fields.map((f) => `${w.operation} ${f.check} ${f.path} ${f.kind}`))).toEqual([]);
      for (const w of ws) expect([w.operation, w.verified, w.checks.intent.checked, w.errors]).toEqual([w.operation, 10, 10, 0]);
    },
  );
});
