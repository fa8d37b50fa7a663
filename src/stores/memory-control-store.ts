import { LRUCache } from 'lru-cache';
import { AUDIT_KEEP, type CommandMark, type ControlHead, type ControlStore, type ControlWrite, type StoredControl } from './control-store.js';

/** The control state of a single replica (no REDIS_URL): in memory, gone with the process. */
export class MemoryControlStore implements ControlStore {
  readonly kind = 'memory';
  private stored: StoredControl | null = null;
  // newest first
  private trail: string[] = [];
  // the records of commands, each for its own time
  private readonly commands = new LRUCache<string, string>({ max: 10_000, ttlAutopurge: false });

  async head(): Promise<ControlHead | null> {
    return this.stored?.head ?? null;
  }

  async read(): Promise<StoredControl | null> {
    return this.stored;
  }

  async write(expected: ControlHead | null, text: string, audit: readonly string[], epoch: string, command?: CommandMark): Promise<ControlWrite> {
    const recorded = command && this.commands.get(command.id);
    if (recorded !== undefined) return { ok: false, stored: this.stored, recorded };
    const cur = this.stored?.head ?? null;
    if (expected === null ? cur !== null : cur === null || cur.epoch !== expected.epoch || cur.version !== expected.version) {
      return { ok: false, stored: this.stored };
    }
    const head: ControlHead = cur
      ? { ...cur, version: cur.version + 1, auditSeq: cur.auditSeq + audit.length }
      : { epoch, version: 1, auditSeq: audit.length, from: null };
    this.stored = { head, text };
    this.trail = [...[...audit].reverse(), ...this.trail].slice(0, AUDIT_KEEP);
    if (command) this.commands.set(command.id, command.record, { ttl: command.ttlMs });
    return { ok: true, stored: this.stored };
  }

  async command(id: string): Promise<string | null> {
    return this.commands.get(id) ?? null;
  }

  async recordCommand(command: CommandMark): Promise<string | null> {
    const there = this.commands.get(command.id);
    if (there !== undefined) return there;
    this.commands.set(command.id, command.record, { ttl: command.ttlMs });
    return null;
  }

  async seed(): Promise<ControlWrite> {
    // nothing loses a replica's own memory while it runs
    return { ok: false, stored: this.stored };
  }

  async audit(count: number): Promise<string[]> {
    return this.trail.slice(0, count);
  }
}
