import { describe, expect, it } from 'vitest';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import { pathKind } from '../../src/mapping/rule-paths.js';
import { parseFieldMask } from '../../src/update/field-mask.js';
import { oneofSiblings } from '../../src/update/oneof-siblings.js';

const resources = loadMappings();
const rulesOf = (name: string) => {
  const r = resources.find((x) => x.mapping.resource === name);
  if (!r) throw new Error(name);
  return r.rules;
};

describe('field masks as pure functions', () => {
  it('resolve paths against the mapping: writable, output-only, or unknown', () => {
    const identities = rulesOf('identities');
    expect(pathKind(identities, ['name'])).toBe('input');
    expect(pathKind(identities, ['claimMatch', 'subject'])).toBe('input');
    expect(pathKind(identities, ['claimMatch', 'claims', 'team'])).toBe('input');
    expect(pathKind(identities, ['claimMatch', 'claims', 'team', 'x'])).toBe('unknown');
    expect(pathKind(identities, ['claimMatch', 'colour'])).toBe('unknown');
    expect(pathKind(identities, ['name', 'x'])).toBe('unknown');
    expect(pathKind(identities, ['createTime'])).toBe('output');
    const bindings = rulesOf('roleBindings');
    expect(pathKind(bindings, ['identity', 'name'])).toBe('output');
    expect(pathKind(bindings, ['roleUid'])).toBe('input');
    expect(pathKind(bindings, ['email'])).toBe('unknown');
  });

  it('derive the mask from the body as the gateway does, values read by json or proto name', () => {
    const rules = rulesOf('identityProviders');
    expect(parseFieldMask(undefined, { name: null, oidc: { client_id: 'c', additionalScopes: ['a'] }, uid: 'x' }, rules)).toEqual({
      ok: true,
      fields: [
        { path: ['name'], value: null },
        { path: ['oidc', 'clientId'], value: 'c' },
        { path: ['oidc', 'additionalScopes'], value: ['a'] },
      ],
    });
    expect(parseFieldMask('oidc.client_secret, description', { oidc: { client_secret: 's' } }, rules)).toEqual({
      ok: true,
      fields: [
        { path: ['oidc', 'clientSecret'], value: 's' },
        { path: ['description'], value: undefined },
      ],
    });
    expect(parseFieldMask('*', {}, rules)).toMatchObject({
      ok: true,
      fields: [{ path: ['name'] }, { path: ['description'] }, { path: ['defaultRole'] }, { path: ['oidc'] }],
    });
    expect(parseFieldMask(' ', { nope: 1 }, rules)).toEqual({ ok: false, violations: [{ field: 'nope', description: 'unknown field "nope"' }] });
  });

  it('clear the other members of a oneof the PATCH sets, never the ones it sets', () => {
    const oneofs = [
      ['claimMatch', 'staticKeys', 'servicePrincipal'],
      ['claimMatch.issuer', 'claimMatch.issuerPattern'],
    ];
    expect(oneofSiblings(oneofs, [{ path: ['claimMatch', 'issuerPattern'], value: 'x' }])).toEqual([
      ['staticKeys'],
      ['servicePrincipal'],
      ['claimMatch', 'issuer'],
    ]);
    expect(oneofSiblings(oneofs, [{ path: ['servicePrincipal'], value: 'X' }])).toEqual([['claimMatch'], ['staticKeys']]);
    expect(oneofSiblings(oneofs, [{ path: ['servicePrincipal'], value: null }])).toEqual([]);
    expect(oneofSiblings(oneofs, [{ path: ['name'], value: 'n' }])).toEqual([]);
  });
});
