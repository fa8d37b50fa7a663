import { type AdminRole, type Operator, roleAllows } from '../auth/admin-operators.js';
import type { AuditRecord } from '../rollout/control-document.js';
import { RECENT_MINUTES, type SideTraffic, type TrafficRow } from '../rollout/fleet-traffic.js';
import { anchorOf, escapeHtml as esc } from '../shadow/render-report.js';
import { shown, sidesText, type Verdict } from '../verdict/three-verdicts.js';

interface Interval {
  step: number;
  endedAt: string;
  requests: { translate: number; native: number };
  errorRate: { translate: number | null; native: number | null };
  p99Ms: { translate: number | null; native: number | null };
  diffRate: number | null;
  verdict: string;
  decidedBy: string | null;
}

interface CheckView extends Verdict {
  check: string;
  applies: boolean;
  dryRun: boolean;
}

interface Progress {
  state: string;
  checks: CheckView[];
  look: number;
  step: number;
  steps: number;
  failures: number;
  pausedBy: string | null;
  reason: string;
  lastAbort: { reason: string; at: string } | null;
  intervals: Interval[];
}

interface RouteView {
  resource: string;
  operations: string[];
  native: number;
  shadow: number;
  effectiveNative: number;
  rolledBack: boolean;
  lastRollback: { at: string; until: string; ended: boolean; why: string } | null;
  approval: { action: string; toNative: number; requestedBy: string; at: string; reason: string; expiresAt: string } | null;
  progress: Progress | null;
}

export interface ConsoleView {
  status: {
    killSwitch: boolean;
    routes: RouteView[];
    progressive: { note: string } | null;
    lastError: string | null;
    configuration: { digest: string; ownDigest: string; drift: boolean };
  };
  fleet: {
    replicas: { id: string; address: string; version: number; stale: boolean; uptimeSeconds: number; drift?: boolean }[];
    note?: string;
  } | null;
  /** every resource's operations: route, shares, and what each side served in the fleet's last minutes */
  traffic: TrafficRow[];
  /** the last changes, newest first */
  audit: AuditRecord[];
  /** who is looking: the buttons are those their role allows */
  operator: Operator;
  generatedAt: string;
  /** the nonce of the page's one script (its Content-Security-Policy allows nothing else) */
  nonce: string;
}

const W = 220;
const H = 48;

/** A small line chart of up to two series (null: no figure that interval), scaled to its own maximum. */
function chart(name: string, series: { label: string; values: (number | null)[]; color: string }[], unit: (v: number) => string): string {
  const values = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  if (values.length === 0)
    return `<figure class="chart" data-chart="${esc(name)}"><figcaption>${esc(name)}</figcaption><p class="none">no figures yet</p></figure>`;
  const max = Math.max(...values, 1e-9);
  const n = Math.max(...series.map((s) => s.values.length));
  const x = (i: number) => (n <= 1 ? W / 2 : (i * W) / (n - 1));
  const y = (v: number) => H - 2 - (v / max) * (H - 4);
  const lines = series
    .map((s) => {
      const points = s.values.flatMap((v, i) => (v === null ? [] : [`${x(i).toFixed(1)},${y(v).toFixed(1)}`]));
      return `<polyline fill="none" stroke="${s.color}" stroke-width="1.6" points="${points.join(' ')}"><title>${esc(s.label)}</title></polyline>`;
    })
    .join('');
  // the last interval's figure of each series, in the series' colour
  const last = series.map((s) => {
    const v = s.values.at(-1);
    return `<span style="color:${s.color}">${esc(s.label)}</span> ${v === null || v === undefined ? '–' : esc(unit(v))}`;
  });
  return `<figure class="chart" data-chart="${esc(name)}"><figcaption>${esc(name)} <span class="last">${last.join(' · ')}</span></figcaption><svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-label="${esc(name)}">${lines}</svg></figure>`;
}

const percent = (v: number) => `${(v * 100).toFixed(2)} %`;
const ms = (v: number) => `${v} ms`;

// the buttons a state allows (the API refuses the others too)
const ACTIONS: Record<string, string[]> = {
  shadowing: ['promote', 'pause', 'abort'],
  progressing: ['promote', 'pause', 'abort'],
  paused: ['promote', 'resume', 'abort'],
  // held by the analysis until it can decide: an operator may still move it on, hold it or abort it
  waiting: ['promote', 'pause', 'abort'],
  promoted: ['abort'],
  aborted: ['retry'],
};

// the role each button needs (the API checks it too)
const NEEDS: Record<string, AdminRole> = { promote: 'admin', retry: 'admin', pause: 'operator', resume: 'operator', abort: 'operator' };

function approvalPart(r: RouteView, operator: Operator): string {
  const a = r.approval;
  if (!a) return '';
  const mine = a.requestedBy === operator.name;
  return `<p class="approval">${esc(a.action)} to native ${a.toNative} % asked by <strong>${esc(a.requestedBy)}</strong> (${esc(a.at)}${
    a.reason === '' ? '' : `: ${esc(a.reason)}`
  }): waiting for a second operator until ${esc(a.expiresAt)}${mine ? '; another operator must approve it' : ''}.</p>`;
}

/** Each check's latest verdict with its numbers: per side the count and the events, the estimate, the interval and its level, the tolerance, the method. */
function checksPart(checks: CheckView[]): string {
  if (checks.length === 0) return '';
  const items = checks
    .map((c) => {
      const head = `<code>${esc(c.check)}</code>${c.dryRun ? ' (dry run)' : ''} <span class="verdict ${esc(c.verdict)}">${c.applies ? esc(c.verdict) : 'not measured'}</span>`;
      if (!c.applies) return `<li data-check="${esc(c.check)}" class="meta">${head}</li>`;
      const range = (b: { low: number; high: number | null }) => `[${esc(shown(b.low, c.unit))}, ${esc(shown(b.high, c.unit))}]`;
      // the fail interval at its look's level, and the pass interval at its own when the two differ
      const pass =
        c.passInterval && c.passLevel !== null && c.passLevel !== undefined && c.passLevel !== c.level
          ? `; pass judged on ${range(c.passInterval)} at <span class="level">${esc(shown(c.passLevel, 'share'))}</span>`
          : '';
      const numbers =
        c.interval === null
          ? esc(c.why)
          : `${esc(c.measure)} ${esc(shown(c.estimate, c.unit))}; fail judged on ${range(c.interval)} at <span class="level">${esc(
              shown(c.level, 'share'),
            )}</span>${c.look === null ? '' : ` (look ${c.look})`}${pass}; tolerance ${esc(shown(c.tolerance, c.unit))}`;
      const method = `<span class="method">${esc(c.method)}</span>`;
      return `<li data-check="${esc(c.check)}" title="${esc(c.method)}">${head}: ${numbers}<br>${method}: <span class="sides">${esc(sidesText(c))}</span></li>`;
    })
    .join('');
  return `<ul class="checks">${items}</ul>`;
}

/** The guard's last rollback: why and until when, also once it is over. */
function rollbackPart(r: RouteView): string {
  const b = r.lastRollback;
  if (!b) return '';
  return `<p class="${b.ended ? 'meta' : 'abort'} rollback">${b.ended ? 'Last rollback by the guard' : '<strong>Rolled back by the guard</strong>'} at ${esc(b.at)}: ${esc(b.why)}; ${
    b.ended ? 'ended' : 'until'
  } ${esc(b.until)}.</p>`;
}

/** Links to the diff report's section of each operation a route serves. */
function diffLinks(r: RouteView): string {
  return r.operations.map((op) => `<a href="/admin/diff#${esc(anchorOf('diff', r.resource, op))}">diffs of ${esc(op)}</a>`).join(' · ');
}

function routeCard(r: RouteView, operator: Operator): string {
  const ops = r.operations.join(',');
  const name = `${r.resource} ${r.operations.join(', ')}`;
  const p = r.progress;
  if (!p) {
    return `<section class="route fixed" data-route="${esc(`${r.resource}/${ops}`)}"><h2>${esc(name)}</h2><p><span class="state">fixed share</span> native <strong>${r.effectiveNative} %</strong> of callers${
      r.effectiveNative !== r.native ? ` (target: ${r.native} %)` : ''
    }${r.rolledBack ? ' · <strong>rolled back by the guard</strong>' : ''} · shadow ${r.shadow} % · ${diffLinks(r)}</p>${rollbackPart(r)}</section>`;
  }
  const path = `/admin/rollout/routes/${encodeURIComponent(r.resource)}/${encodeURIComponent(ops)}`;
  const buttons = (ACTIONS[p.state] ?? [])
    .filter((a) => roleAllows(operator.role, NEEDS[a] ?? 'admin'))
    .map(
      (a) =>
        // decided on the step this page shows: a route that moved meanwhile answers 409, not a second move
        `<button type="button" data-post="${esc(`${path}/${a}`)}" data-action="${a}" data-step="${p.step}"${a === 'abort' ? ' data-ask="Why abort? (logged; empty is fine)" class="danger"' : ''}>${a}</button>`,
    )
    .join('');
  const iv = p.intervals;
  const charts = [
    chart(
      'error rate',
      [
        { label: 'translated', values: iv.map((i) => i.errorRate.translate), color: '#1565c0' },
        { label: 'native', values: iv.map((i) => i.errorRate.native), color: '#c62828' },
      ],
      percent,
    ),
    chart(
      'p99 latency',
      [
        { label: 'translated', values: iv.map((i) => i.p99Ms.translate), color: '#1565c0' },
        { label: 'native', values: iv.map((i) => i.p99Ms.native), color: '#ef6c00' },
      ],
      ms,
    ),
    chart('diff rate', [{ label: 'differing', values: iv.map((i) => i.diffRate), color: '#6a1b9a' }], percent),
  ].join('');
  const last = iv.at(-1);
  const verdict = last
    ? `the step so far: <span class="verdict ${esc(last.verdict)}">${esc(last.verdict)}</span>${last.decidedBy ? ` (${esc(last.decidedBy)})` : ''}`
    : 'no interval judged yet';
  return `<section class="route" data-route="${esc(`${r.resource}/${ops}`)}" data-state="${esc(p.state)}">
<h2>${esc(name)} <span class="state s-${esc(p.state)}">${esc(p.state)}</span></h2>
<p class="facts"><span class="step">step ${p.step} of ${p.steps}</span> · native <strong>${r.effectiveNative} %</strong>${
    r.effectiveNative !== r.native ? ` (step: ${r.native} %)` : ''
  } · shadow ${r.shadow} % · failures in a row ${p.failures} · ${verdict}</p>
<p class="reason">${p.state === 'waiting' ? "<strong>Waiting for the analysis to decide</strong> (not an operator's pause): " : ''}${esc(p.reason)}</p>
${approvalPart(r, operator)}
${p.lastAbort ? `<p class="abort">Last abort (${esc(p.lastAbort.at)}): ${esc(p.lastAbort.reason)}</p>` : ''}
${rollbackPart(r)}
${checksPart(p.checks)}
<div class="charts">${charts}</div>
<p class="meta">${diffLinks(r)}</p>
<div class="actions">${buttons}</div>
</section>`;
}

const rate = (t: SideTraffic) => (t.errorRate === null ? '–' : percent(t.errorRate));
const p99 = (t: SideTraffic) => (t.p99Ms === null ? '–' : ms(t.p99Ms));

/** Every resource's operations, routed or not: target and effective native share, and per side what the fleet served, failed and how slow. */
function trafficPart(rows: TrafficRow[]): string {
  // what a route serves or what was served first, then the rest
  const busy = (t: TrafficRow) => t.route !== null || t.sides.translate.served + t.sides.native.served > 0;
  const body = [...rows.filter(busy), ...rows.filter((t) => !busy(t))]
    .map(
      (t) =>
        `<tr id="${esc(anchorOf('traffic', t.resource, t.operation))}" data-traffic="${esc(`${t.resource} ${t.operation}`)}"><td>${esc(t.resource)}</td><td>${esc(t.operation)}</td><td>${
          t.route === null ? '<span class="meta">none: translated</span>' : `<code>${esc(t.route)}</code>`
        }</td><td class="n">${t.native} %</td><td class="n">${t.effectiveNative} %</td><td class="n">${t.sides.translate.served}</td><td class="n">${t.sides.native.served}</td><td class="n">${rate(
          t.sides.translate,
        )}</td><td class="n">${rate(t.sides.native)}</td><td class="n">${p99(t.sides.translate)}</td><td class="n">${p99(t.sides.native)}</td><td><a href="/admin/diff#${esc(
          anchorOf('diff', t.resource, t.operation),
        )}">diffs</a></td></tr>`,
    )
    .join('');
  return `<div class="scroll"><table class="traffic"><thead><tr><th rowspan="2">resource</th><th rowspan="2">operation</th><th rowspan="2">route</th><th colspan="2">native share</th><th colspan="2">served</th><th colspan="2">error rate</th><th colspan="2">p99</th><th rowspan="2"></th></tr><tr><th>target</th><th>effective</th><th>translated</th><th>native</th><th>translated</th><th>native</th><th>translated</th><th>native</th></tr></thead><tbody>${body}</tbody></table></div>`;
}

function fleetPart(fleet: NonNullable<ConsoleView['fleet']>): string {
  const note = fleet.note ? `<p class="meta">${esc(fleet.note)}</p>` : '';
  if (fleet.replicas.length === 0) return note || '<p class="meta">no replica has checked in</p>';
  const rows = fleet.replicas
    .map(
      (r) =>
        `<tr${r.stale ? ' class="stale"' : ''}><td><code>${esc(r.id)}</code></td><td>${esc(r.address)}</td><td class="n">${r.version}</td><td class="n">${r.uptimeSeconds} s</td><td>${
          r.stale ? 'stale' : 'ok'
        }${r.drift ? ', its own file differs' : ''}</td></tr>`,
    )
    .join('');
  return `${note}<div class="scroll"><table class="replicas"><thead><tr><th>replica</th><th>address</th><th>version</th><th>up</th><th></th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function auditPart(records: AuditRecord[]): string {
  if (records.length === 0) return '<p class="meta">No change yet.</p>';
  const rows = records
    .map(
      (r) =>
        `<tr data-action="${esc(r.action)}"><td>${esc(r.at)}</td><td><strong>${esc(r.actor)}</strong></td><td>${esc(r.action)}</td><td>${
          r.route ? esc(`${r.route.resource} ${r.route.operations.join(',')}`) : ''
        }</td><td>${esc(r.reason)}</td></tr>`,
    )
    .join('');
  return `<div class="scroll"><table class="audit"><thead><tr><th>when</th><th>who</th><th>what</th><th>route</th><th>why</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

// the page's only script: a button posts to the admin API (same origin, the browser's login) and the page reloads
const SCRIPT = `
const say = document.getElementById('said');
document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-post]');
  if (!button) return;
  let reason = '';
  if (button.dataset.ask) {
    const given = prompt(button.dataset.ask, '');
    if (given === null) return;
    reason = given;
  }
  button.disabled = true;
  const body = button.dataset.step ? { reason, fromStep: Number(button.dataset.step) } : { reason };
  // one key per click: a retry the browser makes of it applies once
  const key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  const res = await fetch(button.dataset.post, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(body) });
  if (res.ok) { location.reload(); return; }
  const refusal = await res.json().catch(() => ({}));
  say.textContent = refusal.message || ('refused: ' + res.status);
  button.disabled = false;
});
setTimeout(() => location.reload(), 30000);
`;

/** The console: every route with its state and figures, the kill switch and the fleet, in one self-contained page. */
export function renderConsoleHtml(view: ConsoleView): string {
  const { status, operator } = view;
  const may = roleAllows(operator.role, 'operator');
  const kill = status.killSwitch
    ? `<p class="kill on">Kill switch <strong>on</strong>: every v2 request is translated.${may ? ' <button type="button" data-post="/admin/rollout/resume" data-action="kill-off">turn off</button>' : ''}</p>`
    : `<p class="kill">Kill switch off.${may ? ' <button type="button" class="danger" data-post="/admin/rollout/kill" data-action="kill-on" data-ask="Why turn the kill switch on? (logged; empty is fine)">turn on</button>' : ''}</p>`;
  const routes =
    status.routes.length === 0
      ? '<p>No routes in the rollout file: every v2 request is translated.</p>'
      : status.routes.map((r) => routeCard(r, operator)).join('');
  const drift = status.configuration.drift
    ? `<p class="abort">This replica's own rollout file (${esc(status.configuration.ownDigest)}) differs from the configuration the fleet runs (${esc(status.configuration.digest)}): it follows the fleet's.</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>v2proxy console</title>
<style>
*{box-sizing:border-box}body{font:14px/1.45 system-ui,sans-serif;margin:0;padding:1.2rem;color:#1d2330;background:#f6f7fa}
header{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:baseline}h1{font-size:1.35rem;margin:0}h2{font-size:1.05rem;margin:0 0 .3rem}
.meta,.reason{color:#5a6170}a{color:#1565c0}
.routes{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,420px),1fr));gap:1rem;margin:1rem 0}
.route{background:#fff;border:1px solid #dde;border-radius:8px;padding:.8rem 1rem;min-width:0}
.state{display:inline-block;border-radius:.7rem;padding:0 .55rem;font-size:.8rem;background:#e3e6ee;font-weight:600}
.s-progressing{background:#e3f2fd;color:#0d47a1}.s-shadowing{background:#ede7f6;color:#4527a0}.s-paused{background:#fff8e1;color:#8d5b00}
.s-promoted{background:#e8f5e9;color:#1b5e20}.s-waiting{background:#f1f3f4;color:#37474f}.s-aborted{background:#ffebee;color:#b71c1c}
.facts{margin:.2rem 0}.approval{color:#8d5b00}.abort{color:#b71c1c}.verdict.fail{color:#b71c1c}.verdict.pass{color:#2e7d32}.verdict.inconclusive{color:#8d5b00}
ul.checks{margin:.3rem 0 .5rem;padding-left:1.1rem}ul.checks li{margin:.15rem 0;overflow-wrap:anywhere}.sides{color:#5a6170;font-size:.85rem}
.charts{display:grid;align-items:end;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:.6rem}
figure.chart{margin:0}figcaption{font-size:.78rem;color:#5a6170}.last{display:block;overflow-wrap:anywhere}
svg{display:block;width:100%;height:48px;background:#fafbfd;border:1px solid #eef}.none{font-size:.8rem;color:#999;margin:.3rem 0}
.actions{margin-top:.6rem;display:flex;flex-wrap:wrap;gap:.4rem}
button{font:inherit;padding:.25rem .8rem;border:1px solid #99a;border-radius:5px;background:#fff;cursor:pointer}button.danger{border-color:#c62828;color:#b71c1c}
button:disabled{opacity:.5}.kill.on{color:#b71c1c}#said{color:#b71c1c;min-height:1.2em}
.scroll{overflow-x:auto}table{border-collapse:collapse;background:#fff}th,td{border:1px solid #dde;padding:.25rem .5rem;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}tr.stale{color:#b71c1c}code{font:12px ui-monospace,monospace;word-break:break-all}
</style></head>
<body>
<header><h1>v2proxy console</h1><span class="meta">${esc(view.generatedAt)}</span><span class="meta who">signed in as <strong>${esc(operator.name)}</strong> (${esc(operator.role)})</span><a href="/admin/diff">diff report</a></header>
${kill}
${drift}
${status.progressive ? `<p class="meta">Progressive routes: ${esc(status.progressive.note)}.</p>` : ''}
${status.lastError ? `<p class="abort">The rollout file was refused: ${esc(status.lastError)}</p>` : ''}
<p id="said" role="status"></p>
<div class="routes">${routes}</div>
<h2>Traffic, the fleet's last ${RECENT_MINUTES} minutes</h2>
${trafficPart(view.traffic)}
<h2>Replicas</h2>
${view.fleet ? fleetPart(view.fleet) : '<p class="meta">A single replica: REDIS_URL is not set.</p>'}
<h2>Last changes</h2>
${auditPart(view.audit)}
<script nonce="${esc(view.nonce)}">${SCRIPT}</script>
</body></html>
`;
}
