import { describe, expect, it } from 'vitest';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import { RouteTable } from '../../src/mapping/route-table.js';

const table = new RouteTable(loadMappings());
const uid = `${'a'.repeat(40)}/${'b'.repeat(16)}`;
const summary = (url: string) => {
  const m = table.match(url);
  if (!m) return undefined;
  return { kind: m.kind, resource: m.resource.segment, ...('uid' in m ? { uid: m.uid } : {}), ...('verb' in m ? { verb: m.verb } : {}) };
};

describe('v2 route table', () => {
  it('matches collections, and items whose uid has slashes in it', () => {
    expect(summary('/iam/v2beta1/groups?name=x')).toEqual({ kind: 'collection', resource: 'groups' });
    expect(summary(`/iam/v2beta1/groups/${uid}`)).toEqual({ kind: 'item', resource: 'groups', uid });
    expect(summary(`/registry/v2beta1/tags/${uid}/${'c'.repeat(16)}`)).toEqual({ kind: 'item', resource: 'tags', uid: `${uid}/${'c'.repeat(16)}` });
    expect(summary('/iam/v2beta1/roleBindings')).toEqual({ kind: 'collection', resource: 'roleBindings' });
  });

  it('never swallows a :verb suffix into a uid', () => {
    expect(summary('/iam/v2beta1/groups:lookupGroup')).toEqual({ kind: 'verb', resource: 'groups', verb: 'lookupGroup' });
    expect(summary(`/iam/v2beta1/groups/${uid}:requestGroupAccess`)).toEqual({ kind: 'verb', resource: 'groups', uid, verb: 'requestGroupAccess' });
    expect(summary('/iam/v2beta1/roleBindings:batchCreate')).toEqual({ kind: 'verb', resource: 'roleBindings', verb: 'batchCreate' });
  });

  it('does not match unknown resources, versions or prefixes', () => {
    expect(summary('/iam/v2beta1/widgets')).toBeUndefined();
    expect(summary('/iam/v2beta1/groupsX')).toBeUndefined();
    expect(summary('/iam/v2/groups')).toBeUndefined();
    expect(summary('/registry/v2beta1/groups')).toBeUndefined();
    expect(summary('/iam/v2beta1/groups/%E0%A4%A')).toBeUndefined();
  });

  it('decodes an escaped uid, and takes an unescaped one as it is', () => {
    expect(summary(`/iam/v2beta1/groups/${'a'.repeat(40)}%2F${'b'.repeat(16)}`)).toEqual({ kind: 'item', resource: 'groups', uid });
    expect(summary(`/iam/v2beta1/groups/${uid}%3AlookupGroup`)).toEqual({ kind: 'verb', resource: 'groups', uid, verb: 'lookupGroup' });
    expect(summary('/iam/v2beta1/groups/caf%C3%A9')).toEqual({ kind: 'item', resource: 'groups', uid: 'café' });
    expect(summary('/iam/v2beta1/groups/plain+text')).toEqual({ kind: 'item', resource: 'groups', uid: 'plain+text' });
  });
});
