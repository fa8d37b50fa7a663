// The docs that mirror code are checked against it, their links resolve, and nothing in the
// repository leans on files outside it or on the story of how it was built.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHES, benchmarksPage } from '../../bench/support/benchmarks-page.js';
import { between, checksTable, differencesTable, permissionsTable, precedenceTable, readBetween, settingsTable } from '../../scripts/docs-tables.js';
import { describeSettings } from '../../src/config/load-settings.js';
import { EmulatorSettingsSchema, ProxySettingsSchema } from '../../src/config/settings-schema.js';
import { ERRORS } from '../../src/errors/error-registry.js';
import { GrpcCode } from '../../src/errors/grpc-codes.js';
import { loadMappings } from '../../src/mapping/load-mappings.js';

const ROOT = join(import.meta.dirname, '../..');
const page = (name: string) => readFileSync(join(ROOT, name), 'utf8');
const DOCS = readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`);

/** The names in the first column of a settings table. */
const namesIn = (table: string) => [...table.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);

describe('docs/configuration.md and the settings schemas', () => {
  const text = page('docs/configuration.md');
  const tables = [
    ['proxy-settings', ProxySettingsSchema],
    ['emulator-settings', EmulatorSettingsSchema],
  ] as const;

  it.each(tables)('the %s table names every setting of its schema, and nothing else', (marker, schema) => {
    const documented = namesIn(readBetween(text, marker) ?? '');
    expect(documented.length).toBeGreaterThan(5);
    expect(documented.sort()).toEqual(
      describeSettings(schema)
        .map((s) => s.name)
        .sort(),
    );
  });

  it.each(tables)('the %s table says what its schema says: defaults and meanings (npm run docs writes it)', (marker, schema) => {
    expect(readBetween(text, marker)).toBe(settingsTable(schema));
  });

  it('every setting named anywhere in docs/ or README exists in a schema', () => {
    const known = new Set([...describeSettings(ProxySettingsSchema), ...describeSettings(EmulatorSettingsSchema)].map((s) => s.name));
    // names that look like settings but are not: error names, variables of .demo.env and of the tests
    const others = new Set([
      ...Object.keys(ERRORS),
      ...Object.keys(GrpcCode),
      'ENHANCE_YOUR_CALM',
      'PROXY_HOST',
      'CHROMIUM_PATH',
      'FUZZ_SEED',
      'FUZZ_RUNS',
      'CONFORMANCE_RUNS',
      'CONFORMANCE_SEED',
      'NGINX_PATH',
    ]);
    const pages = ['README.md', ...DOCS];
    const unknown = pages.flatMap((p) =>
      [...page(p).matchAll(/`([A-Z][A-Z0-9]*_[A-Z0-9_]+)(?:=[^`]*)?`/g)]
        .map((m) => m[1] as string)
        .filter((name) => !known.has(name) && !others.has(name) && !/^(CAP|UND|V2PROXY)_/.test(name))
        .map((name) => `${p}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe('docs/v1-v2-differences.md and mappings/', () => {
  it('the resource table is the one the mapping files give (npm run docs writes it)', () => {
    const table = readBetween(page('docs/v1-v2-differences.md'), 'resources');
    expect(table).toBe(differencesTable(loadMappings()));
    expect(table?.split('\n')).toHaveLength(2 + loadMappings().length);
  });

  it('between() replaces only what stands between its markers, and refuses a page without them', () => {
    expect(between('a\n<!-- t -->\nold\n<!-- /t -->\nb', 't', 'new')).toBe('a\n<!-- t -->\nnew\n<!-- /t -->\nb');
    expect(() => between('no markers', 't', 'x')).toThrow(/<!-- t -->/);
  });
});

describe('docs/rollout.md and the rollout code', () => {
  it('the precedence table is the order the decision follows, the permissions table the one the admin routes are registered from, the checks table from the analysis (npm run docs writes them)', () => {
    const text = page('docs/rollout.md');
    expect(readBetween(text, 'precedence')).toBe(precedenceTable());
    expect(readBetween(text, 'permissions')).toBe(permissionsTable());
    expect(readBetween(text, 'checks')).toBe(checksTable());
  });
});

describe('docs/benchmarks.md', () => {
  it('is the page npm run bench writes: a run date, the machine, a section for every bench with its figures', () => {
    const text = page('docs/benchmarks.md');
    expect(text).toContain('<!-- written by `npm run bench`');
    expect(text).toMatch(/^- run: \d{4}-\d\d-\d\d \d\d:\d\d UTC$/m);
    expect(text).toMatch(/^- machine: .+, \d+ cores, [\d.]+ GiB memory/m);
    expect(text).toMatch(/^- Node v\d+\./m);
    const scripts = JSON.parse(page('package.json')).scripts as Record<string, string>;
    for (const b of BENCHES) {
      expect(text).toContain(`## ${b.title}\n\n${b.about}\n\nAlone: \`npm run ${b.script}\`.`);
      expect(scripts[b.script]).toContain(b.file);
    }
    expect(text.match(/^\|---/gm)?.length).toBeGreaterThanOrEqual(BENCHES.length - 1);
  });

  it('renders tables as they are and column-aligned lines as a block', () => {
    const machine = { cpu: 'cpu', cores: 2, memoryGiB: 4, freeGiB: 3, node: 'v20.0.0', platform: 'linux x64' };
    const text = benchmarksPage(new Date('2026-01-02T03:04:05Z'), machine, [
      { title: 'T', about: 'A.', command: 'npm run t', output: 'intro\n| a | b |\n|---|---|\n| 1 | 2 |\nx    1 ms\ny    2 ms\n', failed: 1 },
    ]);
    expect(text).toContain('- run: 2026-01-02 03:04 UTC');
    expect(text).toContain('intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```text\nx    1 ms\ny    2 ms\n```');
    expect(text).toContain('did not finish (exit code 1)');
  });
});

describe('links', () => {
  const pages = ['README.md', 'mappings/README.md', ...DOCS];

  it.each(pages)('every relative link of %s names a file of the repository', (name) => {
    const broken = [...page(name).matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1] as string)
      .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'))
      .filter((target) => !existsSync(join(ROOT, dirname(name), target.split('#')[0] as string)));
    expect(broken).toEqual([]);
  });

  it('README links every page of docs/', () => {
    const readme = page('README.md');
    for (const doc of DOCS) expect(readme).toContain(`(${doc})`);
  });
});

describe('the repository stands alone', () => {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const tracked = git('ls-files', '-z')
    .split('\0')
    .filter((f) => f !== '' && f !== 'package-lock.json' && existsSync(join(ROOT, f)));
  const texts = tracked
    .map((f) => ({ f, text: readFileSync(join(ROOT, f)) }))
    .filter(({ text }) => !text.subarray(0, 8000).includes(0))
    .map(({ f, text }) => ({ f, text: text.toString('utf8') }));

  /** `file:line: text` of every line matching `pattern` (this file's own patterns aside). */
  const hits = (pattern: RegExp) =>
    texts
      .filter(({ f }) => f !== 'test/house/docs.test.ts')
      .flatMap(({ f, text }) => text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${f}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])));

  it('reads the tracked files (a guard: the scans below cannot pass on nothing)', () => {
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.map((t) => t.f)).toContain('README.md');
  });

  it('points at no file outside it, nor at section numbers of other documents', () => {
    expect(hits(/\.\.\/shared|§|api-reference\.md|platform-api-v2\.md|grpc-v2beta1\.md|design\/architecture/)).toEqual([]);
  });

  it('tells nothing of how it was built: no issue numbers, sessions, machines or dates of work', () => {
    expect(hits(/\b(issue|ticket) #?\d+|\bthis (session|afternoon|morning|machine)\b|\bthe spec\b/i)).toEqual([]);
  });

  it('names none of its own commits', () => {
    const commits = git('rev-list', '--all').split('\n').filter(Boolean);
    expect(commits.length).toBeGreaterThan(0);
    const isCommit = (hex: string) => commits.some((c) => c.startsWith(hex));
    const found = texts.flatMap(({ f, text }) =>
      [...text.matchAll(/\b[0-9a-f]{7,40}\b/g)].filter((m) => /[a-f]/.test(m[0]) && /\d/.test(m[0]) && isCommit(m[0])).map((m) => `${f}: ${m[0]}`),
    );
    expect(found).toEqual([]);
  });
});
