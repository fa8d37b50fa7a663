import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMappings } from '../../src/mapping/load-mappings.js';
import { openApiDocument } from '../../src/server/openapi-document.js';
import { openApiTypes, TYPES_FILE } from '../../scripts/openapi-types.js';
import { call } from '../support/emulator-harness.js';
import { A, DEV_TOKEN } from '../support/fixtures.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';

const COMMITTED = new URL('../../docs/openapi.json', import.meta.url);
const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const REDOCLY_CONFIG = fileURLToPath(new URL('../../redocly.yaml', import.meta.url));
type Doc = { paths: Record<string, Record<string, unknown>> };

describe('the OpenAPI document of the v2 REST surface', () => {
  let env: ProxyOnEmulator;
  let served: Doc;
  beforeAll(async () => {
    env = await startProxyOnEmulator();
    served = (await call(env.proxy.url, 'GET', '/openapi.json')).body as Doc;
  });
  afterAll(() => env.close());

  it('is a valid OpenAPI 3.1 document, served at /openapi.json without a token, and the committed copy is what is served (npm run openapi)', async () => {
    const result = await new Validator().validate(served as never);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect((served as unknown as { openapi: string }).openapi).toBe('3.1.0');
    expect(JSON.parse(readFileSync(COMMITTED, 'utf8'))).toEqual(served);
  });

  it('has its generated client types committed as openapi-typescript makes them from it (npm run openapi)', async () => {
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(await openApiTypes(served));
  });

  it("passes Redocly CLI's lint with its recommended rules (redocly.yaml): no error and no warning", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'v2proxy-openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(served));
    // no usage report sent, no update looked for: the test runs offline
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const run = spawnSync(process.execPath, [REDOCLY, 'lint', file, '--config', REDOCLY_CONFIG, '--format', 'json'], {
      encoding: 'utf8',
      env,
      timeout: 60_000,
    });
    const report = JSON.parse(run.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('describes every operation the proxy serves and none it does not, checked against the proxy itself', async () => {
    const uid = `${A}/00000000000000ab`;
    const notServed = (status: number, body: { message?: string; details?: { fieldViolations?: { field: string }[] }[] }) =>
      status === 404
        ? /no route/i.test(String(body.message))
        : status === 501 || (status === 400 && body.details?.[1]?.fieldViolations?.[0]?.field === 'parent');
    const mismatches: string[] = [];
    for (const r of loadMappings()) {
      const base = `${r.prefix}/${r.segment}`;
      for (const [method, template] of [
        ['get', base],
        ['post', base],
        ['post', `${base}/{uid}`],
        ['get', `${base}/{uid}`],
        ['patch', `${base}/{uid}`],
        ['delete', `${base}/{uid}`],
      ] as const) {
        const described = served.paths[template]?.[method] !== undefined;
        // a create names its parent group where the others name the resource
        const path = template.replace('{uid}', method === 'post' ? A : uid);
        const answer = await call(env.proxy.url, method.toUpperCase(), path, {
          token: DEV_TOKEN,
          ...(method === 'post' || method === 'patch' ? { body: {} } : {}),
        });
        if (described === notServed(answer.status, answer.body))
          mismatches.push(`${method.toUpperCase()} ${template}: described ${described}, answered ${answer.status}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('reads list bounds, order_by fields and filters from the mappings, 64-bit integers as strings and times as date-time from the protos', () => {
    const doc = openApiDocument(loadMappings(), 'test');
    const propertiesOf = (name: string) => doc.components.schemas[name]?.properties as Record<string, unknown>;
    const list = doc.paths['/iam/v2beta1/groups']?.get as { parameters: { name: string; schema: Record<string, unknown>; description?: string }[] };
    expect(list.parameters.find((p) => p.name === 'page_size')?.schema).toEqual({ type: 'integer', format: 'int32', minimum: 0, maximum: 200 });
    expect(list.parameters.find((p) => p.name === 'order_by')?.description).toContain('createTime');
    expect(list.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['uidp.children_of', 'uidp.ids', 'name', 'skip', 'page_token']));
    expect(propertiesOf('chainguard.platform.iam.v2beta1.Group').createTime).toEqual({ type: 'string', format: 'date-time', readOnly: true });
    expect(list.parameters.find((p) => p.name === 'order_by')?.schema.pattern).toMatch(/^\^\(uid\|name\|createTime\|create_time/);
    expect(propertiesOf('chainguard.platform.iam.v2beta1.ListGroupsResponse').totalCount).toMatchObject({ type: 'string', format: 'int64' });
  });

  it("states the mappings' rules: fields a client never sets or never sees, the platform's name pattern, the capability names v1 answers", () => {
    const doc = openApiDocument(loadMappings(), 'test');
    const propertiesOf = (name: string) => doc.components.schemas[name]?.properties as Record<string, Record<string, unknown>>;
    const binding = propertiesOf('chainguard.platform.iam.v2beta1.RoleBinding');
    expect([binding.uid?.readOnly, binding.identity?.readOnly, binding.roleUid?.writeOnly, binding.roleUid?.pattern]).toEqual([
      true,
      true,
      true,
      '^[0-9a-f]{40}(?:\\/[0-9a-f]{16})*$',
    ]);
    expect(propertiesOf('chainguard.platform.iam.v2beta1.Group').name?.pattern).toBe('^[a-z0-9 ._-]{1,}$');
    // exactly the capabilities v1 can be told: a later version's (SCIM) included, the proto's unnamed ones not
    const capabilities = (propertiesOf('chainguard.platform.iam.v2beta1.Role').capabilities?.items as { enum?: string[] } | undefined)?.enum;
    expect(capabilities).toEqual([...(loadMappings()[0]?.capabilities.toV1.keys() ?? [])]);
    expect(capabilities).toContain('CAP_IAM_SCIM_MANAGE');
    expect(capabilities).not.toContain('UNKNOWN');
  });

  it('describes every field the mappings know, where the protos do not name it yet too (nested ones in their message)', () => {
    const doc = openApiDocument(loadMappings(), 'test');
    const schema = (name: string) => doc.components.schemas[name] as { properties: Record<string, { $ref?: string; allOf?: { $ref: string }[] }> };
    const missing: string[] = [];
    for (const r of loadMappings()) {
      const get = (
        doc.paths[`${r.prefix}/${r.segment}/{uid}`]?.get as { responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> } | undefined
      )?.responses['200']?.content['application/json']?.schema.$ref;
      const resource = schema(String(get).split('/').at(-1) as string);
      for (const f of r.mapping.fields.filter((x) => !x.v2.includes('.'))) {
        const property = resource.properties[f.v2];
        if (!property) missing.push(`${r.mapping.resource}.${f.v2}`);
        const nested = property?.$ref ?? property?.allOf?.[0]?.$ref;
        if (nested && f.fields)
          for (const inner of f.fields)
            if (!schema(nested.split('/').at(-1) as string).properties[inner.v2]) missing.push(`${r.mapping.resource}.${f.v2}.${inner.v2}`);
      }
    }
    expect(missing).toEqual([]);
    // a field the service has reserved is neither taken nor answered: not described
    expect(schema('chainguard.platform.iam.v2beta1.Identity').properties.providers).toBeUndefined();
    expect(schema('chainguard.platform.iam.v2beta1.GroupInvite').properties.role).toMatchObject({ type: 'object', readOnly: true });
  });

  it('gives each operation the statuses it can answer, each an AIP-193 error but its 200', () => {
    const doc = openApiDocument(loadMappings(), 'test');
    const statuses = (path: string, method: string) => Object.keys((doc.paths[path]?.[method] as { responses?: object } | undefined)?.responses ?? {});
    expect(statuses('/iam/v2beta1/groups', 'get')).not.toContain('404');
    expect(statuses('/iam/v2beta1/groups/{uid}', 'get')).toContain('404');
    expect(statuses('/iam/v2beta1/groups/{uid}', 'get')).not.toContain('409');
    expect(statuses('/iam/v2beta1/groups/{uid}', 'post')).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '409', '503']));
    expect(statuses('/iam/v2beta1/groups/{uid}', 'delete')).not.toContain('412');
  });
});
