import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'node_modules/.bin');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe('generated code', () => {
  it('src/gen is what `npm run generate` (buf + protoc-gen-es) makes of proto/ now', () => {
    const out = mkdtempSync(join(tmpdir(), 'v2proxy-gen-'));
    try {
      execFileSync(join(BIN, 'buf'), ['generate', '-o', out], {
        cwd: ROOT,
        env: { ...process.env, PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}` },
        stdio: 'pipe',
      });
      const fresh = join(out, 'src/gen');
      const committed = join(ROOT, 'src/gen');
      const names = (dir: string) =>
        files(dir)
          .map((f) => relative(dir, f))
          .sort();
      expect(names(fresh)).toEqual(names(committed));
      for (const name of names(fresh)) expect(readFileSync(join(committed, name), 'utf8'), name).toBe(readFileSync(join(fresh, name), 'utf8'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
