import { describe, expect, it } from 'vitest';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import type { ComparedAnswer } from '../../src/shadow/compare-answers.js';
import { DiffBook } from '../../src/shadow/diff-book.js';
import { splitWrites, WriteBook } from '../../src/shadow/write-book.js';
import { answerOnlyFields, checkAnswer, checkIntent, intentOf, movingFields, plainValue, versionOf } from '../../src/shadow/write-intent.js';
import { type WriteJob, WriteVerifier } from '../../src/shadow/write-verifier.js';

const resources = loadMappings();
const resource = (name: string) =>
  resources.find((r) => r.mapping.resource === name) ??
  (() => {
    throw new Error(name);
  })();
const groups = resource('groups');
const ok = (body: unknown): ComparedAnswer => ({ status: 200, body });
const NO = { moving: ['createTime', 'updateTime'], ignore: [] };

describe('what a write asked for (pure)', () => {
  it('a create sets its shown top-level fields; an update its mask paths, or the body leaves without one', () => {
    expect(intentOf(groups, 'create', { name: 'a', description: 'b', uid: 'x', status: 'S' }, '')?.fields.map((f) => f.path.join('.'))).toEqual([
      'name',
      'description',
    ]);
    expect(intentOf(groups, 'update', { name: 'a', description: 'b' }, 'description')?.fields).toEqual([{ path: ['description'], value: 'b' }]);
    // a mask naming a field the body lacks asks for it cleared
    expect(intentOf(groups, 'update', {}, 'description')?.fields).toEqual([{ path: ['description'], value: undefined }]);
    expect(intentOf(groups, 'update', { description: 'b' }, '')?.fields).toEqual([{ path: ['description'], value: 'b' }]);
    expect(intentOf(groups, 'update', { nope: 1 }, '')).toBeNull();
    // a binding's roleUid is never shown, but its role is read from the same v1 field: it may change
    const bindings = resource('roleBindings');
    expect(intentOf(bindings, 'update', { roleUid: 'r' }, 'role_uid')).toEqual({ fields: [], touched: ['roleUid', 'role'] });
    expect(intentOf(groups, 'update', 'not an object', '')).toBeNull();
    // a field taken and never shown (an identity provider's client secret) is not looked for
    const idps = resource('identityProviders');
    const fields = intentOf(idps, 'update', { oidc: { clientSecret: 's', clientId: 'c' } }, '')?.fields.map((f) => f.path.join('.'));
    expect(fields).toContain('oidc.clientId');
    expect(fields).not.toContain('oidc.clientSecret');
  });

  it('reads values as both forms say them: defaults absent, times as instants, numbers as text', () => {
    expect(plainValue({ a: '', b: 0, c: false, d: [], e: {}, f: null, g: 'STATE_UNSPECIFIED' })).toBeUndefined();
    expect(plainValue('2026-01-01T00:00:00Z')).toBe(plainValue('2026-01-01T00:00:00.000Z'));
    expect(plainValue({ n: 5 })).toEqual(plainValue({ n: '5' }));
    // a list of scalars is a set: the order it comes back in is not a difference
    expect(plainValue(['b', 1, 'a'])).toEqual(['1', 'a', 'b']);
  });

  it('checks the fields it set, an update’s others against its pre-image, a delete’s absence', () => {
    const intent = { fields: [{ path: ['description'], value: 'asked' }], touched: ['description'] };
    expect(checkIntent('update', intent, ok({ description: 'asked', name: 'n' }), NO)).toEqual([]);
    expect(checkIntent('update', intent, ok({ name: 'n' }), NO)).toEqual([{ path: 'description', kind: 'missing', primary: 'asked', secondary: undefined }]);
    expect(checkIntent('update', intent, ok({ description: 'other' }), NO)).toMatchObject([{ path: 'description', kind: 'value' }]);
    const before = { name: 'n', description: 'old', verified: false, updateTime: '2026-01-01T00:00:00Z' };
    // the update time moves; a field it did not name must not
    expect(checkIntent('update', intent, ok({ ...before, description: 'asked', updateTime: '2026-01-02T00:00:00Z' }), { ...NO, before })).toEqual([]);
    expect(checkIntent('update', intent, ok({ ...before, description: 'asked', verified: true }), { ...NO, before })).toMatchObject([
      { path: 'verified', kind: 'extra' },
    ]);
    // ignored paths are left out of both parts
    expect(checkIntent('update', intent, ok({ name: 'm' }), { ...NO, before, ignore: ['description', 'name'] })).toEqual([]);
    expect(checkIntent('delete', { fields: [], touched: [] }, { status: 404, body: {} }, NO)).toEqual([]);
    expect(checkIntent('delete', { fields: [], touched: [] }, ok({ name: 'still' }), NO)).toEqual([
      { path: 'status', kind: 'status', primary: 404, secondary: 200 },
    ]);
    expect(checkIntent('create', intent, { status: 404, body: {} }, NO)).toMatchObject([{ path: 'status', kind: 'status' }]);
  });

  it('checks the answer against the read, a gRPC answer’s proto JSON read like REST', () => {
    expect(
      checkAnswer({ uid: 'u', size: '3', createTime: '2026-01-01T00:00:00Z' }, ok({ uid: 'u', size: 3, createTime: '2026-01-01T00:00:00.000Z', kind: '' }), []),
    ).toEqual([]);
    expect(checkAnswer({ uid: 'u', name: 'a' }, ok({ uid: 'u', name: 'b' }), [])).toMatchObject([{ path: 'name', kind: 'value' }]);
    expect(checkAnswer({ uid: 'u', name: 'a' }, ok({ uid: 'u', name: 'b' }), ['name'])).toEqual([]);
  });

  it('knows a resource’s moving fields and version from its mapping and body', () => {
    expect(movingFields(groups)).toEqual(['createTime', 'updateTime']);
    expect(answerOnlyFields(resource('groupInvites'))).toEqual(['code']);
    expect(answerOnlyFields(groups)).toEqual([]);
    expect(versionOf({ updateTime: '2026-01-01T00:00:00Z' })).toBe('2026-01-01T00:00:00.000Z');
    expect(versionOf({ etag: 'e1' })).toBe('e1');
    expect(versionOf({ name: 'x' })).toBeUndefined();
  });
});

describe('the write book', () => {
  it('books each check as the report shows it, apart from the shadow’s reads', () => {
    const book = new DiffBook({ sampleValues: false, now: () => 0 });
    const writes = new WriteBook(book);
    const sample = { requestId: 'r1', url: 'PATCH /iam/v2beta1/groups/x' };
    expect(
      writes.checked('groups', 'update', {
        checks: [
          { check: 'intent', diffs: [] },
          { check: 'answer', diffs: [] },
        ],
        sample,
      }),
    ).toEqual([]);
    expect(
      writes.checked('groups', 'update', {
        checks: [
          { check: 'intent', diffs: [{ path: 'description', kind: 'missing', primary: 'a' }] },
          { check: 'other side', diffs: [{ path: 'kind', kind: 'extra', secondary: 'k' }], thresholds: { relative: 0.2, absolute: 0 } },
        ],
        noise: [],
        sample,
      }),
    ).toEqual(['intent', 'other side']);
    writes.unverified('groups', 'update');
    writes.skipped('groups', 'update');
    writes.error('groups', 'delete');
    book.compared('groups', 'get', { relative: 0.2, absolute: 0 }, { requestId: 'r2', url: '/x' }, []);
    const { reads, writes: report } = splitWrites(book.report());
    expect(reads.routes.map((r) => `${r.resource} ${r.operation}`)).toEqual(['groups get']);
    const update = report.routes.find((w) => w.operation === 'update');
    expect(update).toMatchObject({
      verified: 2,
      matched: 1,
      differed: 1,
      unverified: 1,
      skipped: 1,
      errors: 0,
      checks: { intent: { checked: 2, differed: 1 }, answer: { checked: 1, differed: 0 }, 'other side': { checked: 1, differed: 1 } },
    });
    expect(update?.fields.map((f) => [f.check, f.path, f.samples[0]?.url])).toEqual([
      ['intent', 'description', 'PATCH /iam/v2beta1/groups/x'],
      ['other side', 'kind', 'PATCH /iam/v2beta1/groups/x'],
    ]);
    expect(report.routes.find((w) => w.operation === 'delete')).toMatchObject({ verified: 0, errors: 1 });
  });
});

/** A verifier whose reads come from a script, and whose pauses run the next scripted event. */
function scripted(opts: { maxInflight?: number; retries?: number; between?: (look: number) => void }) {
  const book = new DiffBook({ sampleValues: false, now: () => 0 });
  const outcomes: string[] = [];
  let look = 0;
  const verifier = new WriteVerifier({
    maxInflight: opts.maxInflight ?? 10,
    delayMs: 0,
    retries: opts.retries ?? 2,
    book: new WriteBook(book),
    outcome: (_r, _o, outcome) => outcomes.push(outcome),
    sleep: async () => {
      opts.between?.(look);
      look += 1;
    },
  });
  return { verifier, outcomes, report: () => splitWrites(book.report()).writes.routes[0] };
}

function job(verifier: WriteVerifier, reads: (side: string) => ComparedAnswer, extra: Partial<WriteJob> = {}): WriteJob {
  const generation = verifier.begin('groups/x');
  verifier.wrote('groups/x');
  return {
    resource: 'groups',
    operation: 'update',
    served: 'native',
    key: 'groups/x',
    requestId: 'r',
    url: 'PATCH /iam/v2beta1/groups/x',
    intent: { fields: [{ path: ['description'], value: 'asked' }], touched: ['description'] },
    answer: { description: 'asked', updateTime: '2026-01-01T00:00:00Z' },
    generation: generation + 1,
    ignore: [],
    moving: ['updateTime'],
    answerOnly: [],
    thresholds: { relative: 0.2, absolute: 0 },
    noise: false,
    read: async (side) => reads(side),
    ...extra,
  };
}

describe('the write verifier', () => {
  const stored = { description: 'asked', updateTime: '2026-01-01T00:00:00Z' };

  it('a write overtaken here before its check is checked against the other side only', async () => {
    const { verifier, outcomes, report } = scripted({ between: (look) => look === 0 && verifier.wrote('groups/x') });
    verifier.submit(job(verifier, () => ok({ description: 'later', updateTime: '2026-01-02T00:00:00Z' })));
    await verifier.idle();
    expect(outcomes).toEqual(['match']);
    expect(report()).toMatchObject({ verified: 1, checks: { intent: { checked: 0 }, answer: { checked: 0 }, 'other side': { checked: 1 } } });
  });

  it('a write overtaken elsewhere (its version moved) is looked at again, not reported', async () => {
    const version = '2026-01-02T00:00:00Z';
    const { verifier, outcomes, report } = scripted({});
    verifier.submit(job(verifier, () => ok({ description: 'from another replica', updateTime: version })));
    await verifier.idle();
    expect(outcomes).toEqual(['match']);
    expect(report()).toMatchObject({ verified: 1, differed: 0, checks: { intent: { checked: 0 }, 'other side': { checked: 1 } } });
  });

  it('a resource written during every look is unverified after the retries, never a difference', async () => {
    let reads = 0;
    const { verifier, outcomes, report } = scripted({ retries: 2 });
    verifier.submit(
      job(verifier, () => {
        reads += 1;
        // each look's reads see another write land
        if (reads % 2 === 0) verifier.wrote('groups/x');
        return ok(stored);
      }),
    );
    await verifier.idle();
    expect(outcomes).toEqual(['unverified']);
    expect(report()).toMatchObject({ verified: 0, unverified: 1, differed: 0 });
    expect(reads).toBe(6);
  });

  it('a side that fails is an error; a write over the bound is skipped; a held generation is let go', async () => {
    const { verifier, outcomes, report } = scripted({ maxInflight: 1 });
    verifier.submit(job(verifier, (side) => (side === 'translate' ? { status: 503, body: {} } : ok(stored))));
    verifier.submit(job(verifier, () => ok(stored)));
    await verifier.idle();
    expect(outcomes).toEqual(['skipped', 'error']);
    expect(report()).toMatchObject({ verified: 0, errors: 1, skipped: 1 });
    expect(verifier.generation('groups/x')).toBe(0);
  });

  it('a healthy write matches on every check', async () => {
    const { verifier, outcomes, report } = scripted({});
    verifier.submit(job(verifier, () => ok(stored), { before: async () => ({ description: 'old', updateTime: '2025-01-01T00:00:00Z' }), noise: true }));
    await verifier.idle();
    expect(outcomes).toEqual(['match']);
    expect(report()).toMatchObject({ verified: 1, matched: 1, checks: { intent: { checked: 1 }, answer: { checked: 1 }, 'other side': { checked: 1 } } });
  });
});
