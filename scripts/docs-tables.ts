import { CHECK_FACTS } from '../src/rollout/step-analysis.js';
// The tables of docs/ that mirror code: written by `npm run docs`, and checked by test/house/docs.test.ts.
import { ADMIN_PERMISSIONS } from '../src/auth/admin-operators.js';
import { describeSettings } from '../src/config/load-settings.js';
import { PRECEDENCE } from '../src/rollout/decide-backend.js';
import type { EmulatorSettingsSchema, ProxySettingsSchema } from '../src/config/settings-schema.js';
import type { CompiledResource } from '../src/mapping/compiled-resource.js';
import type { FieldRuleInput } from '../src/mapping/mapping-schema.js';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** One program's settings: name, default, meaning, as the schema has them. */
export function settingsTable(schema: typeof ProxySettingsSchema | typeof EmulatorSettingsSchema): string {
  const rows = describeSettings(schema).map((s) => `| \`${s.name}\` | ${s.default === undefined ? 'unset' : `\`${s.default}\``} | ${cell(s.description)} |`);
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The order in which a request's side is decided (the first rule that applies). */
export function precedenceTable(): string {
  const rows = PRECEDENCE.map((r, i) => `| ${i + 1} | \`${r.rule}\` | ${cell(r.when)} | ${cell(r.side)} |`);
  return ['| # | rule | when | side |', '|---|---|---|---|', ...rows].join('\n');
}

/** The checks of a progressive route's analysis: what each measures, on what, by which method, when it applies. */
export function checksTable(): string {
  const rows = CHECK_FACTS.map((f) => `| \`${f.check}\` | ${cell(f.measure)} | ${cell(f.sides)} | ${cell(f.method)} | ${cell(f.needs)} |`);
  return ['| check | measures | on | interval | needs |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** What each admin call needs. */
export function permissionsTable(): string {
  const rows = ADMIN_PERMISSIONS.map((p) => `| \`${p.method} ${p.path}\` | ${p.role} | ${cell(p.what)} |`);
  return ['| call | role | what |', '|---|---|---|', ...rows].join('\n');
}

/** The renamed fields of a resource (nested ones dotted): `v1 name → v2 name`. */
function renames(fields: readonly FieldRuleInput[], v1Prefix = '', v2Prefix = ''): string[] {
  return fields.flatMap((f) => {
    const v1 = `${v1Prefix}${f.v1 ?? f.v2}`;
    const v2 = `${v2Prefix}${f.v2}`;
    const own = f.v1 !== undefined && f.v1 !== f.v2 ? [`\`${v1}\` → \`${v2}\``] : [];
    return [...own, ...renames(f.fields ?? [], `${v1}.`, `${v2}.`)];
  });
}

function synthesized(fields: readonly FieldRuleInput[]): string[] {
  return fields.filter((f) => f.meta !== undefined).map((f) => `\`${f.v2}\``);
}

/** Per resource, what differs between v1 and v2 and which side the proxy makes up for it on. */
export function differencesTable(resources: readonly CompiledResource[]): string {
  const rows = resources.map(({ mapping: m }) => {
    const ops = m.v2.operations.join(', ');
    const unsupported = Object.keys(m.v2.unsupported);
    const get = `v1 List with \`${m.v1.getBy}=\``;
    const byProxy = m.list.filters.filter((f) => f.to === 'proxy').map((f) => `\`${f.param}\``);
    const renamedFilters = m.list.filters.filter((f) => f.to === 'v1' && f.v1 !== undefined).map((f) => `\`${f.param}\` → v1 \`${f.v1}\``);
    const notes = [
      ...(m.v1.paged ? ['v1 pages itself: the proxy reads every page'] : []),
      ...(m.hydrate.length > 0 ? m.hydrate.map((h) => `\`${h.at}\` completed from ${h.from} (${h.fields.join(', ')})`) : []),
      ...(m.list.rootShared.length > 0 ? ['root records join every group\'s list'] : []),
      ...(m.deletePreconditions.length > 0 ? m.deletePreconditions.map((p) => `delete refused: ${p.description}`) : []),
      ...renamedFilters,
    ];
    return `| ${m.resource} | \`${m.v1.path}\` | ${ops}${unsupported.length > 0 ? ` (no ${unsupported.join(', ')})` : ''} | ${get} | ${renames(m.fields).join(', ') || 'none'} | ${synthesized(m.fields).join(', ') || 'none'} | ${byProxy.join(', ') || 'none'} | ${cell(notes.join('; ')) || ''} |`;
  });
  return [
    '| v2 resource | v1 path | v2 operations | Get by | renamed (v1 → v2) | times the proxy keeps | filters the proxy applies | also |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** `text` with what stands between `<!-- name -->` and `<!-- /name -->` replaced by `content`. */
export function between(text: string, name: string, content: string): string {
  const open = `<!-- ${name} -->`;
  const close = `<!-- /${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`no ${open} … ${close} in the page`);
  return `${text.slice(0, start + open.length)}\n${content}\n${text.slice(end)}`;
}

/** What stands between the markers now. */
export function readBetween(text: string, name: string): string | undefined {
  const open = `<!-- ${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(`<!-- /${name} -->`);
  return start < 0 || end < start ? undefined : text.slice(start + open.length, end).trim();
}
