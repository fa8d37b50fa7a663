import { describe, expect, it } from 'vitest';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import { inV2Words } from '../../src/translate/v1-vocabulary.js';

describe('v1 error texts in v2 words', () => {
  const resources = loadMappings();

  it('names v2 collections and drops a code phrase the v2 prefix repeats', () => {
    expect(inV2Words('rolebindings "a/b" not found', resources)).toBe('roleBindings "a/b" not found');
    expect(inV2Words('account_associations for group "g" already exist', resources)).toBe('accountAssociations for group "g" already exist');
    expect(inV2Words('permission denied: group_invites.create on g', resources)).toBe('CAP_IAM_GROUP_INVITES_CREATE on g');
    expect(inV2Words('permission denied: identity_providers.scim.manage on g', resources)).toBe('CAP_IAM_SCIM_MANAGE on g');
    expect(inV2Words('Not Found: x', resources)).toBe('x');
    // words that only contain a v1 name are left alone, and so is a text that would become empty
    expect(inV2Words('myrolebindings stay', resources)).toBe('myrolebindings stay');
    expect(inV2Words('permission denied:', resources)).toBe('permission denied:');
  });
});
