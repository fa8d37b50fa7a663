import { expect } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Seed } from '../../src/emulator/seed-loader.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/start-emulator.js';
import { DEV_TOKEN, twoTenantSeed } from './fixtures.js';

export interface CallOptions {
  token?: string | undefined;
  body?: unknown;
  /** a raw body sent as is (for malformed-JSON cases) */
  raw?: string;
  form?: Record<string, string | string[]>;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** One HTTP call over a real socket; JSON in, JSON (or text) out. */
export async function call(baseUrl: string, method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.raw !== undefined) {
    body = opts.raw;
    headers['content-type'] ??= 'application/json';
  } else if (opts.form !== undefined) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.form)) for (const one of [v].flat()) params.append(k, one);
    body = params.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? '' : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export interface EmulatorHarness {
  emu: RunningEmulator;
  url: string;
  call(method: string, path: string, opts?: CallOptions): Promise<Answer>;
  /** a call as the dev superuser */
  dev(method: string, path: string, opts?: Omit<CallOptions, 'token'>): Promise<Answer>;
  /** the native v2 surface (its own port) */
  v2url: string;
  v2(method: string, path: string, opts?: CallOptions): Promise<Answer>;
  close(): Promise<void>;
}

export function writeSeedFile(seed: Seed | unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'v2proxy-seed-'));
  const file = join(dir, 'seed.json');
  writeFileSync(file, JSON.stringify(seed));
  return file;
}

/** Starts the emulator on a free loopback port with the two-tenant seed file (or another seed). */
export async function startHarness(
  opts: { seed?: Seed; trustedIssuers?: string[]; v2?: boolean; now?: () => number; random?: () => number } = {},
): Promise<EmulatorHarness> {
  const emu = await startEmulator({
    v2: opts.v2 ?? true,
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.random ? { random: opts.random } : {}),
    host: '127.0.0.1',
    port: 0,
    seedFile: writeSeedFile(opts.seed ?? twoTenantSeed()),
    devToken: DEV_TOKEN,
    trustedIssuers: opts.trustedIssuers ?? [],
  });
  const c = (method: string, path: string, o?: CallOptions) => call(emu.url, method, path, o);
  return {
    emu,
    url: emu.url,
    call: c,
    dev: (method, path, o) => c(method, path, { ...o, token: DEV_TOKEN }),
    v2url: emu.v2Url ?? '',
    v2: (method, path, o) => call(emu.v2Url ?? 'http://127.0.0.1:9', method, path, o),
    close: () => emu.close(),
  };
}

/** The grpc-gateway error body v1 sends. */
export function v1Error(code: number, message: string | RegExp) {
  return { code, message: typeof message === 'string' ? message : expect.stringMatching(message), details: [] };
}

/**
 * A workload identity under `group` whose claim match is `issuer` and `subject` (an OIDC token it
 * may exchange at the STS), bound to the built-in `role` there: its uid.
 */
export async function workloadIdentity(h: EmulatorHarness, w: { name: string; group: string; issuer: string; subject: string; role: string }): Promise<string> {
  const identity = (await h.dev('POST', `/iam/v1/identities/${w.group}`, { body: { name: w.name, claimMatch: { issuer: w.issuer, subject: w.subject } } })).body
    .id as string;
  const role = (await h.dev('GET', `/iam/v1/roles?name=${w.role}`)).body.items[0].id;
  await h.dev('POST', `/iam/v1/rolebindings/${w.group}`, { body: { identity, role } });
  return identity;
}
