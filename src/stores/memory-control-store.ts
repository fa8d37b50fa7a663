import { AUDIT_KEEP, type ControlHead, type ControlStore, type ControlWrite, type StoredControl } from './control-store.js';

/** The control state of a single replica (no REDIS_URL): in memory, gone with the process. */
export class MemoryControlStore implements ControlStore {
  readonly kind = 'memory';
  private stored: StoredControl | null = null;
  // newest first
  private trail: string[] = [];

  async head(): Promise<ControlHead | null> {
    return this.stored?.head ?? null;
  }

  async read(): Promise<StoredControl | null> {
    return this.stored;
  }

  async write(expected: ControlHead | null, text: string, audit: readonly string[], epoch: string): Promise<ControlWrite> {
    const cur = this.stored?.head ?? null;
    if (expected === null ? cur !== null : cur === null || cur.epoch !== expected.epoch || cur.version !== expected.version) {
      return { ok: false, stored: this.stored };
    }
    const head: ControlHead = cur
      ? { ...cur, version: cur.version + 1, auditSeq: cur.auditSeq + audit.length }
      : { epoch, version: 1, auditSeq: audit.length, from: null };
    this.stored = { head, text };
    this.trail = [...[...audit].reverse(), ...this.trail].slice(0, AUDIT_KEEP);
    return { ok: true, stored: this.stored };
  }

  async seed(): Promise<ControlWrite> {
    // nothing loses a replica's own memory while it runs
    return { ok: false, stored: this.stored };
  }

  async audit(count: number): Promise<string[]> {
    return this.trail.slice(0, count);
  }
}
