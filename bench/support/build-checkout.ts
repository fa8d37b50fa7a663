// The benches measure v2proxy as it ships, its build: `npm run bench` builds this checkout first, and
// the before-and-after bench builds the other checkout it is given the same way.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Builds `checkout` (its own TypeScript and build settings) into its dist/. */
export function buildCheckout(checkout: string): void {
  execFileSync(process.execPath, [join(checkout, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(checkout, 'tsconfig.build.json')], {
    cwd: checkout,
    stdio: 'inherit',
  });
}
