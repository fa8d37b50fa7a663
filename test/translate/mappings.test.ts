import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAPPINGS_DIR, loadMappings } from '../../src/mapping/load-mappings.js';

function withMappings(edit: (dir: string) => void): () => unknown {
  const dir = mkdtempSync(join(tmpdir(), 'v2proxy-mappings-'));
  cpSync(DEFAULT_MAPPINGS_DIR, dir, { recursive: true });
  edit(dir);
  return () => {
    try {
      return loadMappings(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

const replaceIn = (file: string, from: string, to: string) => (dir: string) => {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`fixture: "${from}" not in ${file}`);
  writeFileSync(path, text.replace(from, to));
};

describe('mappings', () => {
  it('loads one compiled mapping per resource, all ten', () => {
    const resources = loadMappings();
    expect(resources.map((r) => `${r.prefix}/${r.segment}`).sort()).toEqual([
      '/iam/v2beta1/accountAssociations',
      '/iam/v2beta1/groupInvites',
      '/iam/v2beta1/groups',
      '/iam/v2beta1/identities',
      '/iam/v2beta1/identityProviders',
      '/iam/v2beta1/roleBindings',
      '/iam/v2beta1/roles',
      '/registry/v2beta1/repos',
      '/registry/v2beta1/tags',
      '/vulnerabilities/v2beta1/advisories',
    ]);
    const caps = resources[0]?.capabilities;
    expect(caps?.toV2.get('groups.list')).toBe('CAP_IAM_GROUPS_LIST');
    expect(caps?.toV1.get('CAP_ADVISORIES_APPROVE')).toBe('advisories.approve');
  });

  it('a wrong mapping file stops start-up with a message naming the file and the field', () => {
    expect(withMappings(replaceIn('iam/groups.yaml', 'operations: [list, get, create, update, delete]', 'operations: [list, fetch]'))).toThrow(
      /^mapping iam\/groups\.yaml: v2\.operations\.1: Invalid option/,
    );
    expect(withMappings(replaceIn('iam/roles.yaml', '{ v2: name, type: string', '{ v2: name, type: text'))).toThrow(
      /^mapping iam\/roles\.yaml: fields\.1\.type: /,
    );
    expect(withMappings(replaceIn('registry/tags.yaml', 'sortable: [uid, name, updateTime]', 'sortable: [uid, size]'))).toThrow(
      'mapping registry/tags.yaml: list.sortable: "size" is not a field',
    );
    expect(withMappings(replaceIn('registry/repos.yaml', 'resource: repos', 'resource: repos\ncolour: blue'))).toThrow(
      /^mapping registry\/repos\.yaml: \(top level\): Unrecognized key: "colour"/,
    );
    expect(withMappings(replaceIn('registry/repos.yaml', 'path: /registry/v2beta1/repos', 'path: /registry/v2beta1/tags'))).toThrow(
      'mapping registry/repos.yaml: v2.path: must end in the resource name "repos"',
    );
    expect(withMappings(replaceIn('iam/groups.yaml', 'resource: groups', 'resource: groups\n  bad: [indent'))).toThrow(/^mapping iam\/groups\.yaml: /);
    expect(withMappings((dir) => rmSync(join(dir, 'capabilities.yaml')))).toThrow(/capabilities\.yaml is missing/);
    expect(
      withMappings(replaceIn('iam/groups.yaml', '{ v2: name, type: string, required: true', '{ v2: name, type: string, meta: created, required: true')),
    ).toThrow('mapping iam/groups.yaml: fields: "name": a meta field must be a top-level output timestamp');
    expect(withMappings(replaceIn('iam/role-bindings.yaml', 'from: identities', 'from: people'))).toThrow(
      'mapping iam/role-bindings.yaml: hydrate: "people" is not a resource',
    );
    expect(withMappings(replaceIn('iam/role-bindings.yaml', 'fields: [name, description] }', 'fields: [name, shoeSize] }'))).toThrow(
      'mapping iam/role-bindings.yaml: hydrate: "shoeSize" is not a field of identities',
    );
    expect(withMappings(replaceIn('iam/identities.yaml', '[claimMatch.issuer, claimMatch.issuerPattern]', '[claimMatch.issuer, claimMatch.colour]'))).toThrow(
      'mapping iam/identities.yaml: oneofs: "claimMatch.colour" is not a writable field',
    );
  });

  it('adding a resource that behaves like the others needs only a mapping file', () => {
    const resources = withMappings((dir) =>
      writeFileSync(
        join(dir, 'iam', 'widgets.yaml'),
        [
          'resource: widgets',
          'v2: { path: /iam/v2beta1/widgets, operations: [list, get] }',
          'v1: { path: /iam/v1/widgets }',
          'fields:',
          '  - { v2: uid, v1: id, output: true }',
          'list: { sortable: [uid] }',
          '',
        ].join('\n'),
      ),
    )() as { segment: string }[];
    expect(resources.map((r) => r.segment)).toContain('widgets');
  });
});
