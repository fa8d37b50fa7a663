#!/usr/bin/env node
// The v2proxy command. In a checkout it runs the TypeScript source through tsx (a dev dependency), so
// `npx v2proxy` works right after `npm ci`; an installed package, or the Docker image, runs its build.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/cli.js', import.meta.url).href);
}
