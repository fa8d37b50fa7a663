import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessSetupFlow } from '../support/access-setup-flow.js';
import { call } from '../support/emulator-harness.js';
import { A, CUSTOM_ROLE_A, TOKENS } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

describe('access-setup flow end to end through the proxy', () => {
  let env: ProxyOnEmulator;
  beforeAll(async () => {
    env = await startProxyOnEmulator();
  });
  afterAll(() => env.close());

  it("finds the built-in role by name within the group's subtree, as the flow's step 3 advises", async () => {
    await call(env.h.url, 'POST', '/__emulator/stats/reset');
    const scoped = await call(env.proxy.url, 'GET', `/iam/v2beta1/roles?uidp.descendants_of=${A}&name=viewer`, { token: TOKENS.alice });
    expect(scoped.status).toBe(200);
    expect(scoped.body.roles.map((r: { name: string; uid: string }) => [r.name, r.uid.includes('/')])).toEqual([['viewer', false]]);
    // managed roles belong to every group's list, beside the group's own roles
    const children = await call(env.proxy.url, 'GET', `/iam/v2beta1/roles?uidp.children_of=${A}`, { token: TOKENS.alice });
    expect(children.body.roles.map((r: { name: string }) => r.name).sort()).toEqual(['editor', 'owner', 'publisher', 'viewer']);
    // two v1 calls for a scoped list: the scope and the root
    const stats = (await call(env.h.url, 'GET', '/__emulator/stats')).body as { requests: Record<string, number> };
    expect(stats.requests['GET /iam/v1/roles']).toBe(4);
    // uidp.ids asks for exactly those uids
    const byId = await call(env.proxy.url, 'GET', `/iam/v2beta1/roles?uidp.ids=${CUSTOM_ROLE_A}`, { token: TOKENS.alice });
    expect(byId.body.roles.map((r: { uid: string }) => r.uid)).toEqual([CUSTOM_ROLE_A]);
  });

  it('group → identity → role by name → binding; then binding, identity, group are deleted', async () => {
    await accessSetupFlow((method, path, body) => call(env.proxy.url, method, path, { token: TOKENS.alice, ...(body === undefined ? {} : { body }) }));
  });
});
