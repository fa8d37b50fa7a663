// The REST surface against its own OpenAPI document, property-based: CONFORMANCE_RUNS cases per
// operation (100 by default; raise it for a longer run) from CONFORMANCE_SEED, through translation
// and through the native side.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/emulator-harness.js';
import { TOKENS } from '../support/fixtures.js';
import { AnswerChecker, type CaseRequest, curlOf, type OpenApi, operationsOf, requestsOf, send, UidPool } from '../support/openapi-conformance.js';
import { type BothSides, startBothSides } from '../support/proxy-harness.js';

const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 100);
const SEED = Number(process.env.CONFORMANCE_SEED ?? 20_261_127);
const TOKEN = TOKENS.alice;

describe('the REST surface conforms to its OpenAPI document (property-based, seeded)', () => {
  let sides: BothSides;
  beforeAll(async () => {
    sides = await startBothSides();
  });
  afterAll(() => sides.close());

  for (const side of ['translation', 'native'] as const) {
    it(
      `through ${side}: no 5xx, every status documented, every body valid, broken input refused with a 4xx, created resources retrievable, deleted ones gone`,
      async () => {
        const proxy = sides[side];
        const doc = (await call(proxy.url, 'GET', '/openapi.json')).body as OpenApi;
        // closed on both sides: a field either side answers that the document does not describe fails
        const checker = new AnswerChecker(doc);
        const operations = operationsOf(doc);
        const pool = await UidPool.listed(proxy.url, TOKEN, operations);
        const seeded = new Set(operations.filter((o) => pool.pick(o.resource, 0, false) !== undefined).map((o) => o.resource));
        const failures: string[] = [];
        const stateful = { retrieved: 0, gone: 0 };
        const tally: Record<string, Record<number, number>> = {};
        for (const o of operations) {
          const seen: Record<number, number> = {};
          tally[o.op.operationId] = seen;
          let failed = '';
          const check = async (r: CaseRequest) => {
            const a = await send(proxy.url, TOKEN, r);
            seen[a.status] = (seen[a.status] ?? 0) + 1;
            const problems = checker.problems(o, r, a);
            const uid = (a.body as { uid?: string }).uid;
            if (!r.breaks && a.status === 200 && o.kind === 'create' && uid) {
              // the document's link from the create to its Get says where the new resource is read
              const link = (o.op.responses['200'] as { links?: { getCreated?: { operationId: string } } }).links?.getCreated;
              const get = operations.find((x) => x.op.operationId === link?.operationId);
              const got = await call(proxy.url, 'GET', get ? get.template.replace('{uid}', uid) : `(no link to a Get from ${o.op.operationId})`, {
                token: TOKEN,
              });
              if (got.status !== 200 || got.body.uid !== uid) problems.push(`created ${uid}, then Get answered ${got.status}`);
              else {
                pool.add(o.resource, uid);
                stateful.retrieved++;
              }
            }
            if (!r.breaks && a.status === 200 && o.kind === 'delete') {
              const got = await call(proxy.url, 'GET', r.path, { token: TOKEN });
              const deleted = r.path.slice(o.template.indexOf('{'));
              // a root's caller had access through the root alone: once it is gone, permission is what fails first
              const gone = got.status === 404 || (got.status === 403 && !deleted.includes('/'));
              if (!gone) problems.push(`deleted, then Get answered ${got.status}, not 404`);
              else stateful.gone++;
              pool.remove(o.resource, deleted);
            }
            if (problems.length > 0) {
              failed = `${problems.join('; ')}\n  ${curlOf(proxy.url, r)}\n  answered ${a.status}: ${JSON.stringify(a.body).slice(0, 300)}`;
              throw new Error(failed);
            }
          };
          try {
            await fc.assert(fc.asyncProperty(requestsOf(doc, o, pool), check), { seed: SEED, numRuns: RUNS, endOnFailure: true });
          } catch (e) {
            const replay = /\{ seed: .*\}/.exec((e as Error).message)?.[0] ?? '';
            failures.push(`${o.method} ${o.template} (${side}, ${replay}): ${failed || (e as Error).message}`);
          }
        }
        console.log(`${side}: ${RUNS} cases per operation, seed ${SEED}, ${JSON.stringify(stateful)}: ${JSON.stringify(tally)}`);
        expect(failures).toEqual([]);
        // the run reached the resources, not only their errors
        for (const o of operations.filter((x) => x.kind === 'list' || (x.kind === 'get' && seeded.has(x.resource))))
          expect([o.op.operationId, tally[o.op.operationId]?.[200] ?? 0]).not.toEqual([o.op.operationId, 0]);
        expect(stateful.retrieved).toBeGreaterThan(0);
        expect(stateful.gone).toBeGreaterThan(0);
      },
      Math.max(300_000, RUNS * 4_000),
    );
  }
});
