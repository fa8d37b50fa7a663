import { shown } from '../verdict/three-verdicts.js';
import type { DiffReport, FieldReport, ReportWindow, RouteReport } from './diff-book.js';
import type { WriteReport, WriteRouteReport } from './write-book.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text made safe inside HTML (element content and quoted attributes). */
export const escapeHtml = (v: unknown) => String(v).replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
const esc = escapeHtml;
const pct = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`);

function sampleRows(f: FieldReport): string {
  if (f.samples.length === 0) return '';
  const rows = f.samples
    .map((s) => {
      const values = s.primaryValue !== undefined || s.secondaryValue !== undefined;
      return `<tr><td><code>${esc(s.requestId)}</code></td><td><code>${esc(s.url)}</code></td><td><code>${esc(s.primary)}</code>${
        values ? ` <span class="v">${esc(JSON.stringify(s.primaryValue))}</span>` : ''
      }</td><td><code>${esc(s.secondary)}</code>${values ? ` <span class="v">${esc(JSON.stringify(s.secondaryValue))}</span>` : ''}</td></tr>`;
    })
    .join('');
  return `<details><summary>${f.samples.length} sample${f.samples.length === 1 ? '' : 's'}</summary><table class="samples"><thead><tr><th>request id</th><th>url</th><th>primary</th><th>secondary</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}

/** A field's verdict with its numbers: the interval of its differing share (against the noise arm's), the tolerance, the level. */
function verdictCell(f: FieldReport): string {
  const v = f.verdict;
  const numbers =
    v.interval === null
      ? esc(v.why)
      : `${esc(shown(v.estimate, v.unit))} in [${esc(shown(v.interval.low, v.unit))}, ${esc(shown(v.interval.high, v.unit))}] at ${esc(shown(v.level, 'share'))}; tolerance ${esc(shown(v.tolerance, v.unit))}`;
  const more =
    v.verdict === 'inconclusive'
      ? f.readsToDecide === null
        ? '; no more reads would decide it'
        : `; about ${f.readsToDecide} more reads would decide it`
      : '';
  return `<span class="verdict ${esc(v.verdict)}">${esc(v.verdict)}</span> <span class="numbers" title="${esc(`${v.measure}; ${v.method}`)}">${numbers}${esc(more)}</span>`;
}

function fieldRow(f: FieldReport & { check?: string }): string {
  return `<tr class="${esc(f.verdict.verdict)}" data-path="${esc(f.path)}">${f.check === undefined ? '' : `<td class="check">${esc(f.check)}</td>`}<td><code>${esc(f.path)}</code></td><td>${esc(f.kind)}</td><td class="n">${f.differences}</td><td class="n">${f.noise}</td><td>${verdictCell(f)}</td><td>${sampleRows(f)}</td></tr>`;
}

/** The anchor of a route's section (and of its row in the console's traffic table). */
export const anchorOf = (prefix: 'diff' | 'traffic', resource: string, operation: string) =>
  `${prefix}-${resource}-${operation}`.replace(/[^A-Za-z0-9-]/g, '_');

/** What the admin page adds to the report: the window it covers, a way back to the console, a reset. */
export interface LiveReport {
  since: string;
  /** the window shown (none: all since the last reset) */
  window: ReportWindow | undefined;
  console: string;
  reset: string;
  nonce: string;
}

const WINDOW_NAMES: [ReportWindow | undefined, string][] = [
  [undefined, 'since the last reset'],
  ['1h', 'the last hour'],
  ['15m', 'the last 15 minutes'],
];

/** The windows the report can show, the one shown first and plain, the others as links. */
function windowLinks(live: LiveReport): string {
  const shownNow = WINDOW_NAMES.find(([w]) => w === live.window) as [ReportWindow | undefined, string];
  const others = WINDOW_NAMES.filter(([w]) => w !== live.window).map(
    ([w, name]) => `<a href="${w === undefined ? '?' : `?window=${w}`}" data-window="${w ?? 'all'}">${name}</a>`,
  );
  return `Showing <strong class="shown">${shownNow[1]}</strong>${live.window === undefined ? ` (${esc(live.since)})` : ''}; show ${others.join(' or ')}`;
}

function routeSection(r: RouteReport, live: LiveReport | undefined): string {
  const failing = r.fields.filter((f) => f.verdict.verdict === 'fail').length;
  const fields =
    r.fields.length === 0
      ? '<p class="ok">No differences.</p>'
      : `<table class="fields"><thead><tr><th>field path</th><th>kind</th><th>differences</th><th>noise</th><th>verdict</th><th>samples</th></tr></thead><tbody>${r.fields.map(fieldRow).join('')}</tbody></table>`;
  const back = live ? ` <a class="back" href="${esc(`${live.console}#${anchorOf('traffic', r.resource, r.operation)}`)}">traffic and rollout</a>` : '';
  return `<section class="route" id="${esc(anchorOf('diff', r.resource, r.operation))}" data-route="${esc(`${r.resource} ${r.operation}`)}"><h2>${esc(r.resource)} <span class="op">${esc(r.operation)}</span>${
    failing > 0 ? ` <span class="badge">${failing} failing</span>` : ''
  }${back}</h2><p class="counts">${r.compared} compared, ${r.noiseReads} noise reads, ${r.errors} errors (a side that failed: not compared)</p>${fields}</section>`;
}

/** A route's verified writes: what each check found, and the differing fields with their check. */
function writeSection(w: WriteRouteReport): string {
  const failing = w.fields.filter((f) => f.verdict.verdict === 'fail').length;
  const fields =
    w.fields.length === 0
      ? '<p class="ok">No differences.</p>'
      : `<table class="fields"><thead><tr><th>check</th><th>field path</th><th>kind</th><th>differences</th><th>noise</th><th>verdict</th><th>samples</th></tr></thead><tbody>${w.fields.map(fieldRow).join('')}</tbody></table>`;
  return `<section class="write" id="${esc(anchorOf('diff', w.resource, `${w.operation}-writes`))}" data-write="${esc(`${w.resource} ${w.operation}`)}"><h2>${esc(w.resource)} <span class="op">${esc(w.operation)}</span> writes${
    failing > 0 ? ` <span class="badge">${failing} failing</span>` : ''
  }</h2><p class="counts">${w.verified} verified, ${w.matched} matching; differing by check: intent ${w.checks.intent.differed}, answer ${w.checks.answer.differed}, other side ${w.checks['other side'].differed}; ${w.unverified} unverified (still changing), ${w.errors} errors, ${w.skipped} skipped</p>${fields}</section>`;
}

function writesPart(writes: WriteReport | undefined): string {
  if (!writes || writes.routes.length === 0) return '';
  const rows = writes.routes
    .map(
      (w) =>
        `<tr data-write="${esc(`${w.resource} ${w.operation}`)}"><td>${esc(w.resource)}</td><td>${esc(w.operation)}</td><td class="n">${w.verified}</td><td class="n">${w.matched}</td><td class="n">${w.checks.intent.differed}</td><td class="n">${w.checks.answer.differed}</td><td class="n">${w.checks['other side'].differed}</td><td class="n">${w.unverified}</td><td class="n">${w.errors}</td><td class="n">${w.skipped}</td></tr>`,
    )
    .join('');
  return `<h1 class="writes">Writes verified</h1><p class="meta">Each sampled write, once answered, read back through the side that served it and through the other side: intent (the fields it set hold what it asked, an update's other fields are unchanged, a deleted resource is gone), answer (the read equals what it answered), other side (both sides read alike).</p><table class="summary writes"><thead><tr><th>resource</th><th>operation</th><th>verified</th><th>matching</th><th>intent</th><th>answer</th><th>other side</th><th>unverified</th><th>errors</th><th>skipped</th></tr></thead><tbody>${rows}</tbody></table>${writes.routes.map(writeSection).join('')}`;
}

/** The diff report as one self-contained HTML page (inline style, no scripts, no external assets). */
export function renderReportHtml(report: DiffReport, meta: { title: string; generatedAt: string; live?: LiveReport; writes?: WriteReport }): string {
  const { live } = meta;
  const summary = report.routes
    .map(
      (r) =>
        `<tr data-route="${esc(`${r.resource} ${r.operation}`)}"><td><a href="#${esc(anchorOf('diff', r.resource, r.operation))}">${esc(r.resource)}</a></td><td>${esc(r.operation)}</td><td class="n">${r.compared}</td><td class="n">${r.matched}</td><td class="n">${r.differed}</td><td class="n">${pct(r.differed, r.compared)}</td><td class="n">${r.errors}</td><td class="n">${r.skipped}</td></tr>`,
    )
    .join('');
  const body =
    report.routes.length === 0
      ? '<p>No shadowed or replayed requests yet.</p>'
      : `<table class="summary"><thead><tr><th>resource</th><th>operation</th><th>compared</th><th>matched</th><th>differing</th><th>share</th><th>errors</th><th>skipped</th></tr></thead><tbody>${summary}</tbody></table>${report.routes.map((r) => routeSection(r, live)).join('')}`;
  const window = live
    ? `<p class="window">${windowLinks(live)} · <a href="${esc(live.console)}">console</a> · <button type="button" id="reset">reset: start a new report</button> <span id="said"></span></p>
<script nonce="${esc(live.nonce)}">
document.getElementById('reset').addEventListener('click', async () => {
  const res = await fetch(${JSON.stringify(live.reset)}, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (res.ok) { location.reload(); return; }
  const body = await res.json().catch(() => ({}));
  document.getElementById('said').textContent = body.message || ('refused: ' + res.status);
});
</script>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(meta.title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d2330;background:#fbfbfd}
h1{font-size:1.4rem;margin:0 0 .2rem}h2{font-size:1.1rem;margin:1.6rem 0 .4rem}
.meta{color:#667;margin:0 0 1.2rem}.op{color:#556;font-weight:normal}
table{border-collapse:collapse;margin:.4rem 0;background:#fff}th,td{border:1px solid #dde;padding:.3rem .55rem;text-align:left;vertical-align:top}
th{background:#f0f1f6}td.n{text-align:right;font-variant-numeric:tabular-nums}
table.fields>tbody>tr.fail>td:first-child{border-left:4px solid #c62828}table.samples code{white-space:nowrap}tr.pass{color:#778}
.verdict{font-weight:600}.verdict.fail{color:#c62828}.verdict.pass{color:#2e7d32}.verdict.inconclusive{color:#8a6d00}.numbers{color:#445}
.badge{background:#c62828;color:#fff;border-radius:.6rem;padding:.05rem .5rem;font-size:.8rem}
.ok{color:#2e7d32}.back{font-size:.8rem;font-weight:normal;margin-left:.6rem}.window{margin:.2rem 0 .8rem}code{font:12px ui-monospace,monospace}.v{color:#555;font:12px ui-monospace,monospace}
details summary{cursor:pointer}
</style></head>
<body><h1>${esc(meta.title)}</h1>${window}<p class="meta">Generated ${esc(meta.generatedAt)}. Each field path has a verdict: its share of compared reads that differ there, less its share of the noise arm's reads (the serving side asked twice), with a 98 % interval: fail when the interval lies wholly above the route's tolerance, pass when wholly below, inconclusive otherwise or under 200 reads a side. Values are shown as short hashes, statuses as they are.</p>
${body}
${writesPart(meta.writes)}
</body></html>
`;
}
