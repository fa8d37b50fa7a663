// `npm run bench`: every bench in turn, each in its own process, and their figures written to
// docs/benchmarks.md with the date and the machine. Their output is also shown as it comes.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BENCHES, type Bench, type BenchSection, benchmarksPage, thisMachine } from './support/benchmarks-page.js';

function run(bench: Bench): Promise<BenchSection> {
  const file = fileURLToPath(new URL(bench.file, import.meta.url));
  const child = spawn(process.execPath, [...(bench.nodeFlags ?? []), '--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
    process.stdout.write(d);
  });
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({ title: bench.title, about: bench.about, command: `npm run ${bench.script}`, output, ...(code === 0 ? {} : { failed: code }) }),
    ),
  );
}

const machine = thisMachine();
const at = new Date();
const sections: BenchSection[] = [];
for (const bench of BENCHES) {
  process.stdout.write(`\n== ${bench.title} (${bench.file})\n`);
  sections.push(await run(bench));
}
const page = new URL('../docs/benchmarks.md', import.meta.url);
writeFileSync(page, benchmarksPage(at, machine, sections));
process.stdout.write(`\nwritten to ${fileURLToPath(page)}\n`);
if (sections.some((s) => s.failed !== undefined)) process.exitCode = 1;
