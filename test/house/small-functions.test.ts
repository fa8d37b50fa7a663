import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
// a function a reader takes in at once; the composition root a newcomer reads in one sitting
const MAX_FUNCTION_LINES = 120;
const MAX_ROOT_LINES = 200;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'gen' ? [] : files(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

describe('the house', () => {
  it(`no function of src/ (generated code aside) is longer than ${MAX_FUNCTION_LINES} lines`, () => {
    const long: string[] = [];
    for (const file of files(SRC)) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const body = node.body as ts.Node;
          const from = source.getLineAndCharacterOfPosition(body.getStart(source)).line;
          const to = source.getLineAndCharacterOfPosition(body.getEnd()).line;
          if (to - from + 1 > MAX_FUNCTION_LINES) long.push(`${relative(SRC, file)}:${from + 1} (${to - from + 1} lines)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });

  it(`the composition root lists its parts in at most ${MAX_ROOT_LINES} lines`, () => {
    const root = readFileSync(join(SRC, 'app/build-proxy-app.ts'), 'utf8');
    expect(root.split('\n').length).toBeLessThanOrEqual(MAX_ROOT_LINES);
  });
});
