import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

export const ADMIN_ROLES = ['viewer', 'operator', 'admin'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** A person (or a program) allowed on the admin surface: the name the audit trail records, and a role. */
export interface Operator {
  name: string;
  role: AdminRole;
}

/** Whether `role` may do what needs `needed`: each role can do what the ones before it can. */
export function roleAllows(role: AdminRole, needed: AdminRole): boolean {
  return ADMIN_ROLES.indexOf(role) >= ADMIN_ROLES.indexOf(needed);
}

/** What each admin call needs. The admin routes are registered from this table, and docs/rollout.md shows it (a test holds them together). */
export const ADMIN_PERMISSIONS: readonly { method: 'GET' | 'POST'; path: string; role: AdminRole; what: string }[] = [
  { method: 'GET', path: '/admin', role: 'viewer', what: 'the console' },
  { method: 'GET', path: '/admin/rollout', role: 'viewer', what: 'the rollout in force here, per route' },
  { method: 'GET', path: '/admin/fleet', role: 'viewer', what: "the fleet's replicas, or this replica's own view while Redis is away" },
  { method: 'GET', path: '/admin/audit', role: 'viewer', what: 'the audit trail, newest first' },
  { method: 'GET', path: '/admin/diff', role: 'viewer', what: 'the diff report page' },
  { method: 'GET', path: '/admin/diff.json', role: 'viewer', what: 'the diff report as JSON' },
  { method: 'POST', path: '/admin/rollout/kill', role: 'operator', what: 'the kill switch on' },
  { method: 'POST', path: '/admin/rollout/resume', role: 'operator', what: 'the kill switch off' },
  { method: 'POST', path: '/admin/rollout/reload', role: 'operator', what: "this replica's rollout file, read again and published to the fleet" },
  { method: 'POST', path: '/admin/diff/reset', role: 'operator', what: 'the diff report emptied' },
  { method: 'POST', path: '/admin/rollout/routes/:resource/:operations/pause', role: 'operator', what: 'a progressive route held at its step' },
  { method: 'POST', path: '/admin/rollout/routes/:resource/:operations/resume', role: 'operator', what: 'a paused route resumed' },
  { method: 'POST', path: '/admin/rollout/routes/:resource/:operations/abort', role: 'operator', what: 'a route back to translation' },
  { method: 'POST', path: '/admin/rollout/routes/:resource/:operations/promote', role: 'admin', what: 'a route to its next step (toward native)' },
  { method: 'POST', path: '/admin/rollout/routes/:resource/:operations/retry', role: 'admin', what: 'an aborted route from its first step' },
];

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
// a token travels in a header and in ADMIN_TOKENS: printable, no separators of that list
const TOKEN = /^[\x21-\x2b\x2d-\x39\x3b-\x7e]{16,512}$/;

const OperatorEntry = z
  .strictObject({
    name: z.string().regex(NAME, { error: 'must be 1-64 letters, digits, ., _, @ or -' }),
    role: z.enum(ADMIN_ROLES, { error: (issue) => `${JSON.stringify(issue.input)} is not one of ${ADMIN_ROLES.join(', ')}` }),
    token: z.string().regex(TOKEN, { error: 'must be 16-512 printable characters without , or :' }).optional(),
    tokenSha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, { error: 'must be 64 lower-case hex digits (sha256sum of the token)' })
      .optional(),
  })
  .refine((e) => (e.token === undefined) !== (e.tokenSha256 === undefined), { error: 'give token or tokenSha256, one of them' });

const OperatorsFile = z.strictObject({ operators: z.array(OperatorEntry).min(1).max(1000) });

const digestOf = (token: string) => createHash('sha256').update(token).digest();

const pathText = (path: readonly PropertyKey[]) => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`)).join('');

export type OperatorsResult = { ok: true; operators: AdminOperators } | { ok: false; error: string };

/**
 * The admin surface's operators, each with a role, found by the SHA-256 of the token a request
 * presents (compared in constant time). The tokens themselves are never kept, logged or printed.
 */
export class AdminOperators {
  private constructor(private readonly entries: readonly { operator: Operator; digest: Buffer }[]) {}

  get size(): number {
    return this.entries.length;
  }

  names(): Operator[] {
    return this.entries.map((e) => e.operator);
  }

  authenticate(token: string): Operator | undefined {
    const given = digestOf(token);
    let found: Operator | undefined;
    // every entry is compared, so the time says nothing of which one matched
    for (const e of this.entries) if (timingSafeEqual(e.digest, given)) found ??= e.operator;
    return found;
  }

  /**
   * The operators of the settings: ADMIN_TOKEN (one operator, `admin`, with every role),
   * ADMIN_TOKENS (`name:role:token`, comma-separated) and the YAML or JSON file ADMIN_TOKENS_FILE
   * (`operators: [{name, role, token | tokenSha256}]`). Every problem in one line, by where it is.
   */
  static from(s: { adminToken?: string | undefined; adminTokens?: string | undefined; adminTokensFile?: string | undefined }): OperatorsResult {
    const entries: { operator: Operator; digest: Buffer; where: string }[] = [];
    const problems: string[] = [];
    if (s.adminToken) entries.push({ operator: { name: 'admin', role: 'admin' }, digest: digestOf(s.adminToken), where: 'ADMIN_TOKEN' });
    if (s.adminTokens) {
      s.adminTokens
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
        .forEach((part, i) => {
          const [name = '', role = '', token = '', ...rest] = part.split(':');
          const parsed = OperatorEntry.safeParse({ name, role, token });
          if (rest.length > 0 || !parsed.success) {
            problems.push(
              `ADMIN_TOKENS[${i}]: ${rest.length > 0 ? 'must be name:role:token' : (parsed.error?.issues ?? []).map((x) => `${pathText(x.path)}: ${x.message}`).join('; ')}`,
            );
            return;
          }
          entries.push({ operator: { name, role: role as AdminRole }, digest: digestOf(token), where: `ADMIN_TOKENS[${i}]` });
        });
    }
    if (s.adminTokensFile) {
      let raw: unknown;
      try {
        raw = parseYaml(readFileSync(s.adminTokensFile, 'utf8'), { maxAliasCount: 10 });
      } catch (err) {
        problems.push(
          `ADMIN_TOKENS_FILE: cannot read ${s.adminTokensFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message.split('\n', 1)[0]}`,
        );
      }
      if (raw !== undefined) {
        const parsed = OperatorsFile.safeParse(raw);
        if (!parsed.success) problems.push(...parsed.error.issues.map((x) => `ADMIN_TOKENS_FILE: ${pathText(x.path) || '(top level)'}: ${x.message}`));
        else
          for (const [i, e] of parsed.data.operators.entries()) {
            entries.push({
              operator: { name: e.name, role: e.role },
              digest: e.token !== undefined ? digestOf(e.token) : Buffer.from(e.tokenSha256 as string, 'hex'),
              where: `ADMIN_TOKENS_FILE: operators[${i}]`,
            });
          }
      }
    }
    const names = new Map<string, string>();
    const tokens = new Map<string, string>();
    for (const e of entries) {
      const sameName = names.get(e.operator.name);
      if (sameName) problems.push(`${e.where}: the name ${e.operator.name} is taken by ${sameName}`);
      const hex = e.digest.toString('hex');
      const sameToken = tokens.get(hex);
      if (sameToken) problems.push(`${e.where}: the same token as ${sameToken}`);
      names.set(e.operator.name, e.where);
      tokens.set(hex, e.where);
    }
    if (problems.length > 0) return { ok: false, error: problems.join('; ') };
    return { ok: true, operators: new AdminOperators(entries.map(({ operator, digest }) => ({ operator, digest }))) };
  }
}
