import { describe, expect, it } from 'vitest';
import { bucketKeyOf, EMPTY_DOC, parseControlDoc, routeKey } from '../../src/rollout/control-document.js';
import { reduceControl } from '../../src/rollout/control-reducer.js';
import { parseRollout, type RolloutConfig } from '../../src/rollout/rollout-config.js';

const configOf = (ops: string): RolloutConfig => {
  const parsed = parseRollout(`routes:\n  - resource: groups\n    operations: [${ops}]\n    native: 30\n`);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
};
const publish = (ops: string) => ({ type: 'publish-config' as const, text: `ops ${ops}`, digest: ops, config: configOf(ops), actor: 'file' });

describe('a route is the same route in any order of its operations', () => {
  it('its key orders its operations', () => {
    expect(routeKey('groups', ['list', 'get'])).toBe(routeKey('groups', ['get', 'list']));
    expect(routeKey('groups', ['list', 'get'])).toBe('groups|get,list');
  });

  it('state stored under the key of the file’s order is read under the ordered key; a route stored under both keeps the ordered one', () => {
    const progress = (step: number) => ({ state: 'promoted', step });
    const doc = parseControlDoc(
      JSON.stringify({
        config: null,
        kill: null,
        rollbacks: { 'groups|list,get': { until: 5, count: 1, at: 1, why: 'x' } },
        progress: { 'groups|list,get': progress(2), 'tags|list,get': progress(1), 'tags|get,list': progress(3) },
        approvals: { 'roles|update,get': { action: 'promote' } },
        diffReset: null,
      }),
    );
    expect(Object.keys(doc.rollbacks)).toEqual(['groups|get,list']);
    expect(doc.progress['groups|get,list']).toEqual(progress(2));
    expect(doc.progress['tags|get,list']).toEqual(progress(3));
    expect(Object.keys(doc.progress).sort()).toEqual(['groups|get,list', 'tags|get,list']);
    expect(Object.keys(doc.approvals)).toEqual(['roles|get,update']);
  });

  it('callers stay where they were: a document of before ordered keys buckets by the file’s order, and publishing a reordered file keeps that', () => {
    const legacy = parseControlDoc(JSON.stringify({ config: { text: 'ops list, get', digest: 'list, get', at: 0, actor: 'file' }, progress: {} }));
    expect(legacy.bucketKeys).toBeUndefined();
    expect(bucketKeyOf(legacy, { resource: 'groups', operations: ['list', 'get'] })).toBe('groups|list,get');
    const reduced = reduceControl(legacy, publish('get, list'), { now: 1, config: configOf('list, get'), id: () => 'r' });
    if (reduced.kind !== 'changed') throw new Error(reduced.kind);
    expect(reduced.doc.bucketKeys).toEqual({ 'groups|get,list': 'groups|list,get' });
    expect(bucketKeyOf(reduced.doc, { resource: 'groups', operations: ['get', 'list'] })).toBe('groups|list,get');
    // the key it is bucketed by is kept for as long as the route is in the file, in any order
    const again = reduceControl(reduced.doc, publish('list, get'), { now: 2, config: configOf('get, list'), id: () => 's' });
    if (again.kind !== 'changed') throw new Error(again.kind);
    expect(again.doc.bucketKeys).toEqual({ 'groups|get,list': 'groups|list,get' });
  });

  it('a fleet that starts now buckets every route by its ordered key', () => {
    const reduced = reduceControl(EMPTY_DOC, publish('list, get'), { now: 1, config: configOf('list, get'), id: () => 'r' });
    if (reduced.kind !== 'changed') throw new Error(reduced.kind);
    expect(reduced.doc.bucketKeys).toEqual({});
    expect(bucketKeyOf(reduced.doc, { resource: 'groups', operations: ['list', 'get'] })).toBe('groups|get,list');
  });
});
