import { afterAll, beforeAll, describe, it } from 'vitest';
import { accessSetupFlow } from '../support/access-setup-flow.js';
import { call } from '../support/emulator-harness.js';
import { TOKENS } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

describe('access-setup flow end to end through the proxy', () => {
  let env: ProxyOnEmulator;
  beforeAll(async () => {
    env = await startProxyOnEmulator();
  });
  afterAll(() => env.close());

  it('group → identity → role by name → binding; then binding, identity, group are deleted', async () => {
    await accessSetupFlow((method, path, body) => call(env.proxy.url, method, path, { token: TOKENS.alice, ...(body === undefined ? {} : { body }) }));
  });
});
