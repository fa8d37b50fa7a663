import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadMappings } from '../mapping/load-mappings.js';
import { RouteTable } from '../mapping/route-table.js';
import { type DiffReport, REPORT_JUDGEMENT } from '../shadow/diff-book.js';
import { renderReportHtml } from '../shadow/render-report.js';
import { type ReplayRead, replayReads } from '../shadow/replay-reads.js';
import { shown, sidesText } from '../verdict/three-verdicts.js';

export const DIFF_USAGE = `Usage: v2proxy diff --requests <file.jsonl> --a <url> --b <url> --token <t> [--token-b <t>]
                    [--report <out.html>] [--json <out.json>] [--fail-over <percent>]
                    [--min-reads <n>] [--max-errors <percent>] [--concurrency <n>]
                    [--noise <percent>] [--ignore <field path>]... [--header '<name>: <value>']...

Replays the reads recorded by RECORD_FILE against A and B, compares the answers as the live shadow
does (with a noise baseline: --noise percent of reads also ask A twice), prints a summary and each
differing field's verdict, and writes the report. A field fails when the 98 % interval of its share
of compared reads that differ (less its noise arm's share) lies wholly above --fail-over percent
(default 0), passes when wholly below, and is inconclusive otherwise or with fewer than --min-reads
compared reads (default 200), listed with about how many more reads would decide it. --ignore
leaves a field path out of every comparison, as a rollout route's ignore does (createTime,
groups[].createTime); --header goes to both sides with every read (say,
'x-v2proxy-backend: translate' when A is a proxy with a rollout file). Exit codes:
  0  no field fails, none is inconclusive
  1  a field fails
  2  on bad usage (or a record file that cannot be read)
  3  inconclusive: no field fails but one is inconclusive, the record file has no valid line, no
     read could be compared, or more than --max-errors percent (default 0) of the reads failed on
     either side (no answer, 401, 403, 5xx)
`;

/** The exit code of an inconclusive run: nothing (or too little) was compared to say 0 or 1. */
export const INCONCLUSIVE = 3;

export interface DiffIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** whether stderr is a terminal (progress redraws one line) */
  tty: boolean;
}

class UsageError extends Error {}

function number(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${name} must be a number from ${min} to ${max}`);
  return n;
}

function url(value: string | undefined, name: string): string {
  if (value === undefined) throw new UsageError(`--${name} is required`);
  if (!/^https?:\/\/[^\s/]+/.test(value)) throw new UsageError(`--${name} must be an http(s) URL`);
  return value.replace(/\/+$/, '');
}

// what a read carries itself, or what would let the replay speak for someone else
const OWN_HEADERS = new Set(['authorization', 'x-request-id', 'accept', 'host', 'content-length']);

/** `--header 'name: value'` options as a header record. */
function headers(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(':');
    const name = value.slice(0, colon).trim().toLowerCase();
    if (colon <= 0 || !/^[!#$%&'*+.^`|~\w-]+$/.test(name)) throw new UsageError(`--header must be 'name: value', not ${JSON.stringify(value)}`);
    if (OWN_HEADERS.has(name)) throw new UsageError(`--header cannot set ${name} (the replay sets it)`);
    const text = value.slice(colon + 1).trim();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    if (/[\x00-\x08\x0a-\x1f\x7f]/.test(text)) throw new UsageError(`--header ${name}: the value holds a control character`);
    out[name] = text;
  }
  return out;
}

/** The recorded reads of a RECORD_FILE that name a v2 List or Get; other lines are counted as ignored. */
export function readRecording(text: string, table: RouteTable): { reads: ReplayRead[]; ignored: number } {
  const reads: ReplayRead[] = [];
  let ignored = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: { method?: unknown; url?: unknown; requestId?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      ignored += 1;
      continue;
    }
    const route = typeof entry.url === 'string' && entry.url.startsWith('/') && entry.method === 'GET' ? table.match(entry.url) : undefined;
    if (!route || route.kind === 'verb' || typeof entry.url !== 'string') {
      ignored += 1;
      continue;
    }
    const query = new URLSearchParams(entry.url.split('?')[1] ?? '');
    reads.push({
      url: entry.url,
      requestId: typeof entry.requestId === 'string' ? entry.requestId : `replay-${reads.length + 1}`,
      resource: route.resource.mapping.resource,
      operation: route.kind === 'collection' ? 'list' : 'get',
      continued: (query.get('page_token') ?? query.get('pageToken') ?? '') !== '',
    });
  }
  return { reads, ignored };
}

function summary(report: DiffReport): string {
  const rows = report.routes.map((r) => [
    r.resource,
    r.operation,
    r.compared,
    r.matched,
    r.differed,
    r.errors,
    r.skipped,
    r.fields
      .filter((f) => f.verdict.verdict === 'fail')
      .map((f) => f.path)
      .join(' '),
  ]);
  const head = ['resource', 'operation', 'compared', 'matched', 'differed', 'errors', 'skipped', 'failing fields'];
  const all = [head, ...rows].map((row) => row.map(String));
  const widths = head.map((_, i) => Math.max(...all.map((row) => (row[i] as string).length)));
  return `${all
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] as number)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

const DIFF_OPTIONS = {
  requests: { type: 'string' },
  a: { type: 'string' },
  b: { type: 'string' },
  token: { type: 'string' },
  'token-b': { type: 'string' },
  report: { type: 'string' },
  json: { type: 'string' },
  'fail-over': { type: 'string' },
  'min-reads': { type: 'string' },
  'max-errors': { type: 'string' },
  concurrency: { type: 'string' },
  noise: { type: 'string' },
  ignore: { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What `v2proxy diff` was asked to do, checked. */
interface DiffSettings {
  requests: string;
  a: string;
  b: string;
  token: string;
  tokenB: string;
  failOver: number;
  minReads: number;
  maxErrors: number;
  concurrency: number;
  noise: number;
  ignore: string[];
  headers: Record<string, string>;
  report: string | undefined;
  json: string | undefined;
}

/** The command line read and checked (UsageError when it cannot be used); `help` when that is all it asks. */
function diffSettings(argv: string[]): DiffSettings | 'help' {
  const opts = parseArgs({ args: argv, strict: true, allowPositionals: false, options: DIFF_OPTIONS }).values;
  if (opts.help) return 'help';
  if (!opts.requests) throw new UsageError('--requests is required');
  if (!opts.token) throw new UsageError('--token is required');
  return {
    requests: opts.requests,
    a: url(opts.a, 'a'),
    b: url(opts.b, 'b'),
    token: opts.token,
    tokenB: opts['token-b'] ?? opts.token,
    failOver: number(opts['fail-over'], 'fail-over', 0, 100, 0),
    minReads: Math.floor(number(opts['min-reads'], 'min-reads', 1, 1e9, REPORT_JUDGEMENT.minimum)),
    maxErrors: number(opts['max-errors'], 'max-errors', 0, 100, 0),
    concurrency: Math.floor(number(opts.concurrency, 'concurrency', 1, 256, 8)),
    noise: number(opts.noise, 'noise', 0, 100, 0),
    ignore: opts.ignore ?? [],
    headers: headers(opts.header ?? []),
    report: opts.report,
    json: opts.json,
  };
}

/** `v2proxy diff`: returns the exit code (0 within --fail-over, 1 above, 2 bad usage). */
export async function runDiff(argv: string[], io: DiffIo): Promise<number> {
  let settings: DiffSettings;
  try {
    const read = diffSettings(argv);
    if (read === 'help') {
      io.stdout(DIFF_USAGE);
      return 0;
    }
    settings = read;
  } catch (err) {
    io.stderr(`v2proxy diff: ${(err as Error).message}\n\n${DIFF_USAGE}`);
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(settings.requests, 'utf8');
  } catch (err) {
    io.stderr(`v2proxy diff: cannot read ${settings.requests}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
    return 2;
  }
  const { reads, ignored } = readRecording(text, new RouteTable(loadMappings()));
  if (reads.length === 0) {
    io.stderr(`v2proxy diff: inconclusive: ${settings.requests} has no recorded v2 read${ignored > 0 ? ` (${ignored} lines ignored)` : ''}\n`);
    return INCONCLUSIVE;
  }
  io.stderr(
    `replaying ${reads.length} reads${ignored > 0 ? ` (${ignored} lines ignored: not a recorded v2 read)` : ''} against A ${settings.a} and B ${settings.b}\n`,
  );
  let told = -1;
  const result = await replayReads(reads, {
    a: { url: settings.a, token: settings.token },
    b: { url: settings.b, token: settings.tokenB },
    concurrency: settings.concurrency,
    noisePercent: settings.noise,
    ignore: settings.ignore,
    headers: settings.headers,
    tolerance: settings.failOver / 100,
    judgement: { ...REPORT_JUDGEMENT, minimum: settings.minReads },
    progress: (done, total) => {
      const tenth = Math.floor((10 * done) / total);
      if (io.tty) io.stderr(`\r${done}/${total}${done === total ? '\n' : ''}`);
      else if (tenth !== told) {
        told = tenth;
        io.stderr(`${done}/${total}\n`);
      }
    },
  });
  io.stdout(summary(result.report));
  const share = result.compared === 0 ? 0 : (100 * result.differed) / result.compared;
  io.stdout(`${result.differed} of ${result.compared} compared reads (${share.toFixed(2)} %) show a reported difference; fail-over ${settings.failOver} %\n`);
  const verdicts = fieldVerdicts(result.report);
  if (verdicts.lines.length > 0)
    io.stdout(
      `field verdicts (${shown(REPORT_JUDGEMENT.level.confidence, 'share')} intervals, tolerance ${settings.failOver} % of compared reads, at least ${settings.minReads} reads):\n${verdicts.lines.join('\n')}\n`,
    );
  const generatedAt = new Date().toISOString();
  if (settings.report) writeFileSync(settings.report, renderReportHtml(result.report, { title: `v2proxy diff: ${settings.a} vs ${settings.b}`, generatedAt }));
  if (settings.json) writeFileSync(settings.json, `${JSON.stringify(result.report, null, 2)}\n`);
  const why = inconclusive(result, settings.maxErrors);
  if (why !== undefined) {
    io.stdout(`inconclusive: ${why}\n`);
    return INCONCLUSIVE;
  }
  if (verdicts.fail > 0) return 1;
  if (verdicts.inconclusive > 0) {
    io.stdout(`inconclusive: ${verdicts.inconclusive} field${verdicts.inconclusive === 1 ? '' : 's'} need more reads to decide\n`);
    return INCONCLUSIVE;
  }
  return 0;
}

/** Each differing field's verdict as a line, failing ones first; and how many fail or are undecided. */
function fieldVerdicts(report: DiffReport): { lines: string[]; fail: number; inconclusive: number } {
  const fields = report.routes.flatMap((r) => r.fields.map((f) => ({ route: `${r.resource} ${r.operation}`, f })));
  const rank = { fail: 0, inconclusive: 1, pass: 2 } as const;
  fields.sort((a, b) => rank[a.f.verdict.verdict] - rank[b.f.verdict.verdict]);
  const lines = fields.map(({ route, f }) => {
    const v = f.verdict;
    const more =
      v.verdict !== 'inconclusive'
        ? ''
        : f.readsToDecide === null
          ? '; no more reads would decide it'
          : `; about ${f.readsToDecide} more reads would decide it`;
    const numbers =
      v.interval === null ? v.why : `${sidesText(v)}: ${shown(v.estimate, v.unit)} in [${shown(v.interval.low, v.unit)}, ${shown(v.interval.high, v.unit)}]`;
    return `  ${v.verdict.padEnd(13)} ${route}  ${f.path}  ${numbers}${more}`;
  });
  return {
    lines,
    fail: fields.filter((x) => x.f.verdict.verdict === 'fail').length,
    inconclusive: fields.filter((x) => x.f.verdict.verdict === 'inconclusive').length,
  };
}

/** Why a replay says nothing either way, if it does not. */
function inconclusive(result: Awaited<ReturnType<typeof replayReads>>, maxErrors: number): string | undefined {
  const errorShare = result.replayed === 0 ? 0 : (100 * result.failed) / result.replayed;
  const failures = (side: Record<string, number>) =>
    Object.entries(side)
      .map(([why, n]) => `${why} ×${n}`)
      .join(', ') || 'none';
  const failed = `${result.failed} of ${result.replayed} reads failed (${errorShare.toFixed(2)} %; A: ${failures(result.failures.a)}; B: ${failures(result.failures.b)})`;
  if (result.compared === 0) return `no read could be compared; ${failed}`;
  if (errorShare > maxErrors) return `${failed}, above --max-errors ${maxErrors} %`;
  return undefined;
}
