import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_PERMISSIONS, AdminOperators, roleAllows } from '../../src/auth/admin-operators.js';
import { loadSettings } from '../../src/config/load-settings.js';

const file = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'v2proxy-operators-')), 'operators.yaml');
  writeFileSync(path, text);
  return path;
};
const sha = (t: string) => createHash('sha256').update(t).digest('hex');

describe('named operators and their roles', () => {
  it('reads ADMIN_TOKEN, ADMIN_TOKENS and ADMIN_TOKENS_FILE (a token or its SHA-256), and finds each operator by token', () => {
    const made = AdminOperators.from({
      adminToken: 'the-one-admin-token-of-old',
      adminTokens: 'alice:operator:alice-token-0123456789, bob:viewer:bob-token-0123456789',
      adminTokensFile: file(`operators:\n  - name: carol\n    role: admin\n    tokenSha256: ${sha('carol-token-0123456789')}\n`),
    });
    if (!made.ok) throw new Error(made.error);
    const ops = made.operators;
    expect(ops.names()).toEqual([
      { name: 'admin', role: 'admin' },
      { name: 'alice', role: 'operator' },
      { name: 'bob', role: 'viewer' },
      { name: 'carol', role: 'admin' },
    ]);
    expect(ops.authenticate('alice-token-0123456789')).toEqual({ name: 'alice', role: 'operator' });
    expect(ops.authenticate('carol-token-0123456789')).toEqual({ name: 'carol', role: 'admin' });
    expect(ops.authenticate('the-one-admin-token-of-old')).toEqual({ name: 'admin', role: 'admin' });
    expect(ops.authenticate('alice-token-012345678')).toBeUndefined();
    expect(ops.authenticate('')).toBeUndefined();
  });

  it('refuses every bad entry at once, in one line, by where it is; the settings refuse them at start', () => {
    const bad = AdminOperators.from({
      adminTokens: 'alice:boss:alice-token-0123456789,bob:viewer:short,eve:viewer:x:y,alice:viewer:other-token-0123456789',
      adminTokensFile: file(
        'operators:\n  - name: dan\n    role: viewer\n  - name: "a b"\n    role: admin\n    token: same-token-0123456789\n    tokenSha256: abc\n',
      ),
    });
    expect(bad.ok).toBe(false);
    const error = (bad as { error: string }).error;
    expect(error).toContain('ADMIN_TOKENS[0]: role: "boss" is not one of viewer, operator, admin');
    expect(error).toContain('ADMIN_TOKENS[1]: token: must be 16-512 printable characters');
    expect(error).toContain('ADMIN_TOKENS[2]: must be name:role:token');
    expect(error).toContain('ADMIN_TOKENS_FILE: operators[0]: give token or tokenSha256, one of them');
    expect(error).toContain('ADMIN_TOKENS_FILE: operators[1].name: must be 1-64 letters');
    expect(error).not.toContain('\n');
    expect(AdminOperators.from({ adminTokens: 'a:viewer:same-token-0123456789,b:admin:same-token-0123456789' })).toEqual({
      ok: false,
      error: 'ADMIN_TOKENS[1]: the same token as ADMIN_TOKENS[0]',
    });
    expect(AdminOperators.from({ adminTokensFile: '/nonexistent/operators.yaml' })).toEqual({
      ok: false,
      error: 'ADMIN_TOKENS_FILE: cannot read /nonexistent/operators.yaml: ENOENT',
    });
    expect(loadSettings({ ADMIN_TOKENS: 'x:root:token-of-x-0123456789' })).toEqual({
      ok: false,
      error: 'ADMIN_TOKENS[0]: role: "root" is not one of viewer, operator, admin',
    });
  });

  it('each role can do what the roles below it can; only admin moves traffic toward native', () => {
    expect(roleAllows('admin', 'operator')).toBe(true);
    expect(roleAllows('operator', 'viewer')).toBe(true);
    expect(roleAllows('viewer', 'operator')).toBe(false);
    expect(roleAllows('operator', 'admin')).toBe(false);
    const needs = (path: string) => ADMIN_PERMISSIONS.find((p) => p.path.endsWith(path))?.role;
    expect([needs('/promote'), needs('/retry'), needs('/abort'), needs('/kill'), needs('/admin/audit')]).toEqual([
      'admin',
      'admin',
      'operator',
      'operator',
      'viewer',
    ]);
  });
});
