import { escapeHtml as esc } from '../shadow/render-report.js';
import type { OpenApiDocument } from './openapi-document.js';

type Schema = Record<string, unknown>;
interface Operation {
  operationId: string;
  tags?: string[];
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

const METHODS = ['get', 'post', 'patch', 'delete'] as const;

/** A schema in a few words: its type, format and bounds, or a link to the component it names. */
function typeOf(schema: Schema | undefined): string {
  if (!schema) return '';
  const named = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
  if (named) return `<a href="#${esc(named)}">${esc(named.split('.').pop())}</a>`;
  if (schema.type === 'array') return `${typeOf(schema.items as Schema)}[]`;
  if (schema.type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object')
    return `map of ${typeOf(schema.additionalProperties as Schema)}`;
  const bits = [schema.type === undefined ? 'any' : String(schema.type)];
  if (schema.format) bits.push(`(${String(schema.format)})`);
  if (schema.minimum !== undefined || schema.maximum !== undefined) bits.push(`${schema.minimum ?? ''}–${schema.maximum ?? ''}`);
  if (Array.isArray(schema.enum)) bits.push(`: ${schema.enum.map(String).join(' | ')}`);
  return esc(bits.join(' '));
}

function operationSection(path: string, method: string, op: Operation): string {
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}${p.required ? ', required' : ''}</td><td>${typeOf(p.schema)}</td><td>${esc(p.description ?? '')}</td></tr>`,
    )
    .join('');
  const body = op.requestBody ? Object.values(op.requestBody.content)[0]?.schema : undefined;
  const ok = op.responses['200']?.content?.['application/json']?.schema;
  const errors = Object.keys(op.responses).filter((s) => s !== '200');
  return `<section class="op" id="${esc(op.operationId)}"><h3><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>${
    op.description ? `<p>${esc(op.description)}</p>` : ''
  }${params === '' ? '' : `<table><thead><tr><th>parameter</th><th>in</th><th>type</th><th>meaning</th></tr></thead><tbody>${params}</tbody></table>`}${
    body ? `<p>Body: ${typeOf(body)}</p>` : ''
  }<p>200: ${typeOf(ok)}; errors (<a href="#google.rpc.Status">Status</a>): ${errors.map(esc).join(', ')}</p></section>`;
}

function schemaSection(name: string, schema: Schema): string {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>)
    .map(([field, s]) => `<tr><td><code>${esc(field)}</code></td><td>${typeOf(s)}</td></tr>`)
    .join('');
  return `<section class="schema" id="${esc(name)}"><h3>${esc(name)}</h3>${schema.description ? `<p>${esc(schema.description)}</p>` : ''}${
    properties === '' ? '' : `<table><tbody>${properties}</tbody></table>`
  }</section>`;
}

/**
 * The OpenAPI document as one self-contained reference page: each operation by resource with its
 * parameters, body, answer and error statuses, then every schema; inline style, no script, nothing
 * loaded from elsewhere.
 */
export function renderOpenApiPage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationSection(path, method, op)]);
    }
  }
  const toc = [...byTag.keys()].map((t) => `<a href="#tag-${esc(t)}">${esc(t)}</a>`).join(' · ');
  const ops = [...byTag.entries()].map(([t, sections]) => `<h2 id="tag-${esc(t)}">${esc(t)}</h2>${sections.join('')}`).join('');
  const schemas = Object.entries(doc.components.schemas)
    .map(([name, s]) => schemaSection(name, s))
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;color:#1d2330;background:#fbfbfd;max-width:70rem}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #dde}h3{font-size:1rem;margin:1.2rem 0 .3rem;overflow-wrap:anywhere}
table{border-collapse:collapse;margin:.3rem 0;background:#fff;display:block;overflow-x:auto;max-width:100%}th,td{border:1px solid #dde;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f0f1f6}code{font:12px ui-monospace,monospace;overflow-wrap:anywhere}p{overflow-wrap:anywhere}
.method{display:inline-block;min-width:4rem;text-align:center;border-radius:.3rem;color:#fff;font-size:.8rem;padding:.05rem .3rem}
.get{background:#2e7d32}.post{background:#1565c0}.patch{background:#8a6d00}.delete{background:#c62828}
</style></head>
<body><h1>${esc(doc.info.title)}</h1><p>Version ${esc(doc.info.version)}. The same document as JSON: <a href="/openapi.json">/openapi.json</a>. Resources: ${toc} · <a href="#schemas">schemas</a></p>
${ops}<h2 id="schemas">Schemas</h2>${schemas}
</body></html>
`;
}
