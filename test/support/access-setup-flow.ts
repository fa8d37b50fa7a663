import { expect } from 'vitest';
import { aipError } from './aip.js';
import type { Answer } from './emulator-harness.js';
import { A, ALICE } from './fixtures.js';
import { anyTime, PROTO_TIME_PATTERN, TIME_PATTERN } from './matchers.js';

export type V2Call = ((method: string, path: string, body?: unknown) => Promise<Answer>) & {
  /** answers as proto JSON, which leaves zero values out (gRPC); REST JSON spells them out */
  omitsZeroValues?: boolean;
};

const isZero = (v: unknown) =>
  v === '' ||
  v === 0 ||
  v === false ||
  (Array.isArray(v) && v.length === 0) ||
  (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype && Object.keys(v).length === 0);

/** An expected answer as a door that leaves zero values out shows it (its times as proto JSON writes them; other matchers kept). */
export function asShownBy(v2: V2Call, expected: unknown): unknown {
  if (!v2.omitsZeroValues || expected === null || typeof expected !== 'object') return expected;
  if ('asymmetricMatch' in expected) {
    // (the matcher keeps a copy of its pattern)
    const sample = (expected as { sample?: unknown }).sample;
    return sample instanceof RegExp && sample.source === TIME_PATTERN.source ? expect.stringMatching(PROTO_TIME_PATTERN) : expected;
  }
  if (Array.isArray(expected)) return expected.map((e) => asShownBy(v2, e));
  return Object.fromEntries(
    Object.entries(expected)
      .filter(([, v]) => !isZero(v))
      .map(([k, v]) => [k, asShownBy(v2, v)]),
  );
}

/**
 * The access-setup flow and its cleanup order, as the owner of tenant A (not a superuser),
 * every answer checked field by field. One case suite, run against every implementation of v2:
 * the proxy's translation path and the emulator's native surface.
 */
export async function accessSetupFlow(v2: V2Call): Promise<void> {
  const shown = (expected: unknown) => asShownBy(v2, expected);
  // 1. a group under a parent group
  const group = await v2('POST', `/iam/v2beta1/groups/${A}`, { name: 'platform-team', description: 'runs the platform' });
  expect(group.status).toBe(200);
  expect(group.body).toEqual(
    shown({
      uid: expect.stringMatching(new RegExp(`^${A}/[0-9a-f]{16}$`)),
      name: 'platform-team',
      description: 'runs the platform',
      resourceLimits: {},
      verified: false,
      createTime: anyTime(),
      updateTime: anyTime(),
    }),
  );
  expect(group.body.updateTime).toBe(group.body.createTime);
  const G = group.body.uid as string;

  // 2. an identity under that group
  const identity = await v2('POST', `/iam/v2beta1/identities/${G}`, {
    name: 'deployer',
    description: 'CI deploy job',
    claimMatch: { issuer: 'https://token.actions.githubusercontent.com', subject: 'repo:acme/app:ref:refs/heads/main' },
  });
  expect(identity.status).toBe(200);
  expect(identity.body).toEqual(
    shown({
      uid: expect.stringMatching(new RegExp(`^${G}/[0-9a-f]{16}$`)),
      name: 'deployer',
      description: 'CI deploy job',
      claimMatch: { issuer: 'https://token.actions.githubusercontent.com', subject: 'repo:acme/app:ref:refs/heads/main' },
      createTime: anyTime(),
      updateTime: anyTime(),
    }),
  );
  const I = identity.body.uid as string;

  // 3. find `viewer` in the role list by name
  const roles = await v2('GET', '/iam/v2beta1/roles?name=viewer');
  expect(roles.status).toBe(200);
  expect(roles.body).toEqual(
    shown({
      roles: [
        {
          uid: expect.any(String),
          name: 'viewer',
          description: 'Viewer Role (built-in)',
          capabilities: expect.arrayContaining(['CAP_IAM_GROUPS_LIST']),
          createTime: anyTime(),
          updateTime: anyTime(),
        },
      ],
      nextPageToken: '',
      totalCount: '1',
      skipped: 0,
    }),
  );
  const viewer = roles.body.roles[0];
  // the same role is in the unfiltered list
  const all = await v2('GET', '/iam/v2beta1/roles?page_size=200');
  expect((all.body.roles as { uid: string; name: string }[]).filter((r) => r.name === 'viewer').map((r) => r.uid)).toEqual([viewer.uid]);

  // 4. bind them under the group
  const binding = await v2('POST', `/iam/v2beta1/roleBindings/${G}`, { identityUid: I, roleUid: viewer.uid });
  expect(binding.status).toBe(200);
  expect(binding.body).toEqual(
    shown({
      uid: expect.stringMatching(new RegExp(`^${G}/[0-9a-f]{16}$`)),
      identity: {
        uid: I,
        name: 'deployer',
        description: 'CI deploy job',
        issuer: 'https://token.actions.githubusercontent.com',
        subject: 'repo:acme/app:ref:refs/heads/main',
      },
      group: { uid: G, name: 'platform-team', description: 'runs the platform' },
      role: { uid: viewer.uid, name: 'viewer', description: 'Viewer Role (built-in)' },
      createTime: anyTime(),
    }),
  );
  const R = binding.body.uid as string;
  expect((await v2('GET', `/iam/v2beta1/roleBindings/${R}`)).body).toEqual(binding.body);
  const listed = await v2('GET', `/iam/v2beta1/roleBindings?group=${G}`);
  expect(listed.body).toEqual(shown({ roleBindings: [binding.body], nextPageToken: '', totalCount: '1', skipped: 0 }));
  expect(binding.body.createTime).toMatch(v2.omitsZeroValues ? PROTO_TIME_PATTERN : TIME_PATTERN);

  // cleanup in the flow's order: binding, identity, group
  expect(await v2('DELETE', `/iam/v2beta1/roleBindings/${R}`)).toMatchObject({ status: 200, body: {} });
  expect(await v2('DELETE', `/iam/v2beta1/identities/${I}`)).toMatchObject({ status: 200, body: {} });
  expect(await v2('DELETE', `/iam/v2beta1/groups/${G}`)).toMatchObject({ status: 200, body: {} });
  for (const [resource, uid] of [
    ['roleBindings', R],
    ['identities', I],
    ['groups', G],
  ] as const) {
    const gone = await v2('GET', `/iam/v2beta1/${resource}/${uid}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(aipError(5, `Not found: ${resource}/${uid}`, 'NOT_FOUND'));
  }
  // the owner's own identity was never touched
  expect((await v2('GET', `/iam/v2beta1/identities/${ALICE}`)).status).toBe(200);
}
