import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessSetupFlow, type V2Call } from '../support/access-setup-flow.js';
import type { RunningProxy } from '../../src/commands/serve.js';
import { type Answer, call, type EmulatorHarness, startHarness } from '../support/emulator-harness.js';
import { TOKENS } from '../support/fixtures.js';
import { type GrpcV2, grpcV2 } from '../support/grpc-v2-call.js';
import { startProxy } from '../support/proxy-harness.js';
import { walkErrorsAndMaskedUpdate } from '../support/walk-errors-update.js';

type Side = 'translate' | 'native';
// the operators' secret: only with it does the override header pick a side
const SECRET = 'override-secret-of-the-case-suite';
const DOORS: [string, 'rest' | 'grpc', Side][] = [
  ['REST, translated', 'rest', 'translate'],
  ['REST, native', 'rest', 'native'],
  ['gRPC, translated', 'grpc', 'translate'],
  ['gRPC, native', 'grpc', 'native'],
];

describe('one case suite, four doors: REST and gRPC, each translated and native', () => {
  let h: EmulatorHarness;
  let proxy: RunningProxy;
  let grpc: GrpcV2;
  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-doors-')), 'rollout.yaml');
    // no route sends anything native: each call picks its side with the override
    writeFileSync(file, 'allowOverride: true\nroutes: []\n');
    h = await startHarness();
    // the native backend is the emulator's native surface: REST and gRPC on one port
    proxy = await startProxy({ V1_BASE_URL: h.url, V2_BASE_URL: h.v2url, ROLLOUT_FILE: file, ROLLOUT_OVERRIDE_SECRET: SECRET });
    grpc = grpcV2(new URL(proxy.url).host, TOKENS.alice);
  });
  afterAll(async () => {
    grpc.close();
    await proxy.close();
    await h.close();
  });

  const through = (protocol: 'rest' | 'grpc', side: Side): V2Call => {
    const force = { 'x-v2proxy-backend': side, 'x-v2proxy-override-secret': SECRET };
    const v2: V2Call = async (method, path, body) => {
      let res: Answer;
      if (protocol === 'rest') {
        res = await call(proxy.url, method, path, { token: TOKENS.alice, headers: force, ...(body === undefined ? {} : { body }) });
      } else {
        res = await grpc.call(method, path, body, force);
      }
      // every answer says which side served it, and it is the side asked for
      expect(res.headers.get('x-v2proxy-backend'), `${method} ${path}`).toBe(side);
      return res;
    };
    v2.omitsZeroValues = protocol === 'grpc';
    return v2;
  };

  for (const [name, protocol, side] of DOORS) {
    it(`${name}: the access-setup flow`, async () => {
      await accessSetupFlow(through(protocol, side));
    });
    it(`${name}: a list walk with page tokens, the two documented errors, a masked update`, async () => {
      await walkErrorsAndMaskedUpdate(through(protocol, side));
    });
  }
});
