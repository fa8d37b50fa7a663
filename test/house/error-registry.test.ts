import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS, type ErrorName, apiError, errorMessage, httpStatusOfEntry } from '../../src/errors/error-registry.js';
import { codeName } from '../../src/errors/grpc-codes.js';
import { renderError } from '../../src/errors/render-error.js';

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The rows of the table in docs/errors.md: name → [code, HTTP, template, when]. */
function documented(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readFileSync(join(ROOT, 'docs/errors.md'), 'utf8').split('\n')) {
    const m = /^\| `([A-Z0-9_]+)` \| (.+) \|$/.exec(line);
    if (!m) continue;
    const cells = (m[2] as string).split(' | ');
    cells[2] = (cells[2] as string).replace(/^`|`$/g, ''); // the template, quoted as code
    rows.set(m[1] as string, cells);
  }
  return rows;
}

describe('one error registry, and its docs page', () => {
  it('docs/errors.md lists every entry with its code, HTTP status and template, and nothing else', () => {
    const rows = documented();
    const expected = new Map(
      Object.entries(ERRORS).map(([name, e]) => [
        name,
        [
          e.code === 'v1' ? "v1's code" : `${e.code} ${codeName(e.code)}`,
          e.code === 'v1' ? "v1's status" : String(httpStatusOfEntry(name as ErrorName)),
          e.template,
          e.when,
        ],
      ]),
    );
    expect([...rows.keys()].filter((n) => !expected.has(n))).toEqual([]); // documented, not in the registry
    expect([...expected.keys()].filter((n) => !rows.has(n))).toEqual([]); // in the registry, not documented
    for (const [name, row] of expected) expect(rows.get(name), name).toEqual(row);
  });

  it('every answer carries the status its entry gives, the override of the code included', () => {
    for (const name of Object.keys(ERRORS) as ErrorName[]) {
      if (ERRORS[name].code === 'v1') continue;
      expect(renderError(apiError(name), '/iam/v2beta1/groups').status, name).toBe(httpStatusOfEntry(name));
    }
    // the two overrides: a code's usual status would be 504 and 429
    expect(renderError(apiError('REQUEST_TIMEOUT'), '/').status).toBe(408);
    expect(renderError(apiError('HEADERS_TOO_LARGE'), '/').status).toBe(431);
  });

  it('no code outside the registry makes an error of its own, and every entry is used', () => {
    const registry = join(SRC, 'errors/error-registry.ts');
    // the emulator is a backend of its own (its errors are v1's and native v2's), not the proxy
    const sources = files(SRC).filter((f) => f !== registry && !relative(SRC, f).startsWith('emulator/'));
    const makers = sources.filter((f) => /new ApiError\(/.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f));
    expect(makers).toEqual([]);
    const text = sources.map((f) => readFileSync(f, 'utf8')).join('\n');
    const used = (name: string) =>
      text.includes(`'${name}'`) ||
      (name === 'INVALID_FIELDS' && text.includes('invalidFields(')) ||
      (name === 'PRECONDITION_FAILED' && text.includes('preconditionFailed(')) ||
      (name === 'NOT_FOUND' && text.includes('resourceNotFound('));
    expect(Object.keys(ERRORS).filter((name) => !used(name))).toEqual([]);
  });

  it('an entry fills its template; a v1 refusal keeps v1 code', () => {
    expect(errorMessage('NO_ROUTE', { method: 'GET', path: '/x' })).toBe('no route for GET /x');
    const err = apiError('V1_REFUSED', { message: 'groups "g" not found' }, {}, 5);
    expect({ code: err.code, detail: err.detail, entry: err.entry }).toEqual({ code: 5, detail: 'groups "g" not found', entry: 'V1_REFUSED' });
  });
});
