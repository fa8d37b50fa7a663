// A client generated from the served document (openapi-typescript's types, openapi-fetch's calls)
// runs the access-setup flow on the translated and the native side: the document says enough for a
// typed client to do the whole job, with no type assertion or cast.
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../gen/platform-api.js';
import { A, TOKENS } from '../support/fixtures.js';
import { type BothSides, startBothSides } from '../support/proxy-harness.js';

describe('a client generated from the OpenAPI document runs the access-setup flow', () => {
  let sides: BothSides;
  beforeAll(async () => {
    sides = await startBothSides();
  });
  afterAll(() => sides.close());

  for (const side of ['translation', 'native'] as const) {
    it(`through ${side}: group, identities, the viewer role, a binding read back hydrated, a masked update, an ordered walk with its total, deletes`, async () => {
      const api = createClient<paths>({ baseUrl: sides[side].url, headers: { authorization: `Bearer ${TOKENS.alice}` } });

      const group = await api.POST('/iam/v2beta1/groups/{uid}', {
        params: { path: { uid: A } },
        body: { name: `team ${side}`, description: 'made by a generated client' },
      });
      const groupUid = group.data?.uid ?? '';
      expect([group.response.status, groupUid.startsWith(`${A}/`)]).toEqual([200, true]);

      const identityUids: string[] = [];
      for (const name of ['carol bot', 'alice bot', 'bob bot']) {
        const made = await api.POST('/iam/v2beta1/identities/{uid}', {
          params: { path: { uid: groupUid } },
          body: { name, claimMatch: { issuer: 'https://issuer.example', subject: name.replace(' ', '-') } },
        });
        expect(made.error).toBeUndefined();
        identityUids.push(made.data?.uid ?? '');
      }
      const [first = ''] = identityUids;

      const roles = await api.GET('/iam/v2beta1/roles', { params: { query: { 'uidp.descendants_of': groupUid, name: 'viewer' } } });
      const viewer = roles.data?.roles?.find((r) => r.name === 'viewer')?.uid ?? '';
      expect(viewer).not.toBe('');

      const binding = await api.POST('/iam/v2beta1/roleBindings/{uid}', { params: { path: { uid: groupUid } }, body: { identityUid: first, roleUid: viewer } });
      const bindingUid = binding.data?.uid ?? '';
      const readBack = await api.GET('/iam/v2beta1/roleBindings/{uid}', { params: { path: { uid: bindingUid } } });
      expect([readBack.data?.identity?.uid, readBack.data?.identity?.name, readBack.data?.role?.name, readBack.data?.group?.uid]).toEqual([
        first,
        'carol bot',
        'viewer',
        groupUid,
      ]);

      // only what the mask names changes
      const updated = await api.PATCH('/iam/v2beta1/identities/{uid}', {
        params: { path: { uid: first }, query: { update_mask: 'description' } },
        body: { description: 'renamed nothing', name: 'ignored' },
      });
      expect([updated.data?.name, updated.data?.description]).toEqual(['carol bot', 'renamed nothing']);

      // the whole list, one per page, in the order asked, as many as its total says
      const names: string[] = [];
      let total = '';
      let pageToken: string | undefined;
      do {
        const page = await api.GET('/iam/v2beta1/identities', {
          params: { query: { 'uidp.children_of': groupUid, order_by: 'name desc', page_size: 1, ...(pageToken ? { page_token: pageToken } : {}) } },
        });
        expect(page.error).toBeUndefined();
        names.push(...(page.data?.identities ?? []).map((i) => i.name ?? ''));
        total = page.data?.totalCount ?? '';
        pageToken = page.data?.nextPageToken || undefined;
      } while (pageToken !== undefined && names.length < 10);
      expect([names, total]).toEqual([['carol bot', 'bob bot', 'alice bot'], '3']);

      const deleted = [await api.DELETE('/iam/v2beta1/roleBindings/{uid}', { params: { path: { uid: bindingUid } } })];
      for (const uid of identityUids) deleted.push(await api.DELETE('/iam/v2beta1/identities/{uid}', { params: { path: { uid } } }));
      deleted.push(await api.DELETE('/iam/v2beta1/groups/{uid}', { params: { path: { uid: groupUid } } }));
      expect(deleted.map((d) => d.response.status)).toEqual(Array(deleted.length).fill(200));
      const gone = await api.GET('/iam/v2beta1/groups/{uid}', { params: { path: { uid: groupUid } } });
      expect(gone.response.status).toBe(404);
    });
  }
});
