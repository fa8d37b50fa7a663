// docs/benchmarks.md as `npm run bench` writes it: the machine, then each bench's own output.
import { cpus, freemem, totalmem } from 'node:os';

export interface Bench {
  title: string;
  about: string;
  file: string;
  nodeFlags?: string[];
  script: string;
}

/** What `npm run bench` runs, in order, and what the page says of each. */
export const BENCHES: Bench[] = [
  {
    title: 'Translated Get',
    about:
      "What v2proxy adds to a translated Get over the direct v1 call, next to a minimal hand-written proxy doing the same translation (node:http and an undici pool) and the same minimal proxy as a fastify route: latency under open-loop load at half of v2proxy's capacity, and CPU per request from each process's /proc stat; then the same Get as a gRPC call over h2c against the REST Get, on v2proxy and on a hand-written node:http2 gRPC server making the same v1 call (the gRPC floor of this runtime).",
    file: 'get-overhead.bench.ts',
    script: 'bench:get',
  },
  {
    title: 'List walks and snapshot memory',
    about:
      'Walking a whole list page by page (page_size 200) through the proxy, against reading the v1 list directly plus the floor of any proxy that must read it whole; a walk from a new snapshot, a re-walk, growth with size, and the heap a kept snapshot holds against its v1 JSON. The same v1 answer loaded by a hand-written function in the same rounds gives the least a walk over a changed answer can take.',
    file: 'list-walk.bench.ts',
    nodeFlags: ['--expose-gc'],
    script: 'bench:list',
  },
  {
    title: 'v1 passthrough',
    about:
      'A v1 read passed through unchanged by v2proxy, by a minimal Node passthrough (node:http and an undici pool) and by nginx (when installed), against the emulator called directly: added p50 and CPU per request, closed loop, interleaved.',
    file: 'passthrough.bench.ts',
    script: 'bench:passthrough',
  },
  {
    title: 'Shadow reads',
    about: 'The client-visible cost of shadowing every read to the native backend, against a route that shadows none, at several request rates.',
    file: 'shadow.bench.ts',
    script: 'bench:shadow',
  },
  {
    title: 'Tracing',
    about:
      'What OpenTelemetry tracing costs a request: v2proxy with tracing off (no OTLP endpoint, no SDK loaded) against the same build tracing every request (ratio 1.0), a tenth of them (parent-based ratio 0.1, what production should run) and none (configured, nothing sampled), spans exported over OTLP/HTTP protobuf to a collector on loopback: CPU per call and p50 of the translated Get and the gRPC Get, interleaved blocks, each in its own process.',
    file: 'tracing.bench.ts',
    script: 'bench:tracing',
  },
  {
    title: 'Span cost',
    about:
      "What one span costs, in isolation: v2proxy's lean tracer and OTLP encoder next to the OpenTelemetry SDK's own tracer, batch processor and OTLP/HTTP exporters, protobuf and JSON, in one process, interleaved rounds: CPU per span to make and end it, and to encode and send it to a collector in another process; and the longest event-loop delay while spans are made and exported under load.",
    file: 'span-cost.bench.ts',
    script: 'bench:spans',
  },
  // with BENCH_BEFORE (a checkout of the code before a change): this build against that one
  ...(process.env.BENCH_BEFORE
    ? [
        {
          title: 'Before and after a change',
          about:
            "This checkout's v2proxy against the build in BENCH_BEFORE (the code before a change, tracing off in both), each in its own process on one v1 emulator, plain and with the fleet's parts on (Redis, a native backend, a progressive route): CPU per call and p50 in interleaved blocks, for the translated Get, the v1 passthrough read and the gRPC Get.",
          file: 'before-after.bench.ts',
          script: 'bench:before',
        },
      ]
    : []),
  {
    title: 'A flaky v1',
    about: 'Reads while v1 resets a share of connections, refuses them, or hangs: how many succeed, how fast failures come, how soon reads recover.',
    file: 'flaky-v1.bench.ts',
    script: 'bench:flaky',
  },
];

export interface BenchSection {
  title: string;
  /** what it measures and how, in a sentence or two */
  about: string;
  /** how to run it alone */
  command: string;
  /** what the bench printed (markdown tables and lines of text) */
  output: string;
  /** its exit code, when it did not finish */
  failed?: number | null;
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  freeGiB: number;
  node: string;
  platform: string;
}

export function thisMachine(): Machine {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: totalmem() / 2 ** 30,
    freeGiB: freemem() / 2 ** 30,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

/** A bench's output as markdown: tables as they are, aligned lines as a block, other lines as paragraphs. */
function asMarkdown(output: string): string {
  const blocks: string[] = [];
  let run: { kind: 'table' | 'aligned'; lines: string[] } | undefined;
  const flush = () => {
    if (run) blocks.push(run.kind === 'table' ? run.lines.join('\n') : ['```text', ...run.lines, '```'].join('\n'));
    run = undefined;
  };
  for (const raw of output.split('\n')) {
    const line = raw.trimEnd();
    // the passthrough bench pads columns with spaces: kept in a block that keeps them
    const kind = line.startsWith('|') ? 'table' : / {2,}/.test(line.trim()) ? 'aligned' : undefined;
    if (kind === undefined) {
      flush();
      if (line.trim() !== '') blocks.push(line.trim());
    } else {
      if (run?.kind !== kind) flush();
      run ??= { kind, lines: [] };
      run.lines.push(line);
    }
  }
  flush();
  return blocks.join('\n\n');
}

export function benchmarksPage(at: Date, machine: Machine, sections: readonly BenchSection[]): string {
  const head = [
    '# Benchmarks',
    '',
    '<!-- written by `npm run bench` (bench/write-benchmarks-page.ts): edits here are overwritten -->',
    '',
    'Figures measured by `npm run bench`, all in one run: each bench starts its own processes on',
    'loopback, interleaves the things it compares in short slices and repeats them, and reports ranges',
    'over the rounds. Ratios within one table come from the same run on the same machine; absolute',
    'times depend on the machine and on what else it was doing. v2proxy runs as it ships: its build',
    '(`npm run build`, which `npm run bench` makes first), as `npm start` and the image run it.',
    '',
    `- run: ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB.toFixed(1)} GiB memory (${machine.freeGiB.toFixed(1)} GiB free at the start), ${machine.platform}`,
    `- Node ${machine.node}`,
  ];
  const body = sections.flatMap((s) => [
    '',
    `## ${s.title}`,
    '',
    s.about,
    '',
    `Alone: \`${s.command}\`.`,
    '',
    ...(s.failed !== undefined ? [`**This bench did not finish (exit code ${s.failed}); its output so far:**`, ''] : []),
    asMarkdown(s.output),
  ]);
  return `${[...head, ...body].join('\n')}\n`;
}
