import { readFileSync } from 'node:fs';

/** This build's version, from its package.json (the same file from src/ and from dist/). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
