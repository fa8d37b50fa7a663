import { expect } from 'vitest';
import { aipError, badRequest, preconditionFailure } from './aip.js';
import type { V2Call } from './access-setup-flow.js';
import { A } from './fixtures.js';

/**
 * A list walk with page tokens, the two errors the v2 documentation spells out, and a masked
 * update, as the owner of tenant A: the second case suite every v2 door runs.
 */
export async function walkErrorsAndMaskedUpdate(v2: V2Call): Promise<void> {
  // a walk of one-item pages sees the same groups, in the same order, as one large page
  const whole = await v2('GET', `/iam/v2beta1/groups?uidp.descendants_of=${A}&page_size=100`);
  expect(whole.status).toBe(200);
  const all = (whole.body.groups as { uid: string }[]).map((g) => g.uid);
  expect(all.length).toBeGreaterThan(1);
  const walked: string[] = [];
  let token = '';
  for (let page = 0; page < 50; page += 1) {
    const res = await v2('GET', `/iam/v2beta1/groups?uidp.descendants_of=${A}&page_size=1${token === '' ? '' : `&page_token=${encodeURIComponent(token)}`}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    walked.push(...(res.body.groups as { uid: string }[]).map((g) => g.uid));
    token = res.body.nextPageToken ?? '';
    if (token === '') break;
  }
  expect(walked).toEqual(all);

  // the two documented errors: a create without a name, a delete of a group with child repos
  const empty = await v2('POST', `/iam/v2beta1/groups/${A}`, {});
  expect(empty.status).toBe(400);
  expect(empty.body).toEqual(
    // each implementation words the rule its own way; the field and the shape are the same
    aipError(3, /^Invalid argument: name: /, 'INVALID_ARGUMENT', 'iam.chainguard.dev', [
      badRequest([{ field: 'name', description: expect.any(String) as unknown as string }]),
    ]),
  );
  const notEmpty = await v2('DELETE', `/iam/v2beta1/groups/${A}`);
  expect(notEmpty.status).toBe(400);
  expect(notEmpty.body).toEqual(
    aipError(9, 'Precondition failed: cannot delete group with child repos', 'FAILED_PRECONDITION', 'iam.chainguard.dev', [
      preconditionFailure([{ type: 'RESOURCE_NOT_EMPTY', description: 'cannot delete group with child repos' }]),
    ]),
  );

  // a masked update changes the masked field only
  const made = await v2('POST', `/iam/v2beta1/groups/${A}`, { name: 'masked', description: 'before' });
  expect(made.status).toBe(200);
  const G = made.body.uid as string;
  const updated = await v2('PATCH', `/iam/v2beta1/groups/${G}?update_mask=description`, { name: 'not-applied', description: 'after' });
  expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  expect(updated.body).toMatchObject({ uid: G, name: 'masked', description: 'after' });
  expect((await v2('GET', `/iam/v2beta1/groups/${G}`)).body).toMatchObject({ name: 'masked', description: 'after' });
  expect((await v2('DELETE', `/iam/v2beta1/groups/${G}`)).status).toBe(200);
}
