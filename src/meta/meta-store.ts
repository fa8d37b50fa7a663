import { hash } from 'node:crypto';

/** The times v1 does not keep, in epoch milliseconds and as v2 shows them (kept, not formatted per read). */
export interface MetaTimes {
  created: number;
  updated: number;
  createdText: string;
  updatedText: string;
}

/** What the store keeps per resource: the times, and a fingerprint of the v1 record they describe. */
export interface MetaEntry extends MetaTimes {
  /** hash of the v1 record last seen; `null` after a write through the proxy (the next read adopts its own) */
  fingerprint: string | null;
}

// The records of one read share one `now`: the text of the last instant formatted is kept.
let lastInstant = Number.NaN;
let lastText = '';
function textOf(ms: number): string {
  if (ms !== lastInstant) {
    lastText = new Date(ms).toISOString();
    lastInstant = ms;
  }
  return lastText;
}

export function metaEntry(created: number, updated: number, fingerprint: string | null): MetaEntry {
  return { created, updated, fingerprint, createdText: textOf(created), updatedText: textOf(updated) };
}

/** A change to persist: an entry set, or one removed. */
export type MetaChange = { key: string; entry: MetaEntry } | { key: string; removed: true };

/** Where changes go beyond memory (a file, later a shared store); absent for `META_STORE=memory`. */
export interface MetaJournal {
  /** queues changes; `durable` waits until they are on disk (writes through the proxy) */
  append(changes: readonly MetaChange[], durable: boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * The fingerprint of a record from the JSON text of its v2 item (without the synthesized times):
 * changes whenever anything the client sees does. The text is rendered once per v1 read anyway.
 */
export function fingerprintOf(text: string): string {
  return hash('sha1', text, 'base64');
}

/** What a read saw of one record: its store key, fingerprint, and v1's own creation time if any. */
export interface Sighting {
  key: string;
  fingerprint: string;
  since?: number | undefined;
}

/** Where synthesized times live: this process (MetaStore) or a store the replicas share (Redis). */
export interface TimesStore {
  observe(seen: readonly Sighting[], now: number): MetaTimes[] | Promise<MetaTimes[]>;
  written(key: string, now: number, created: boolean): Promise<MetaTimes>;
  removed(key: string): Promise<void>;
  close(): Promise<void>;
}

/** The entry a read makes of what it saw: `known` kept, moved on (the record changed), or new. */
export function nextEntry(known: MetaEntry | undefined, fingerprint: string, since: number | undefined, now: number): MetaEntry {
  if (known && known.fingerprint === fingerprint) return known;
  return known
    ? metaEntry(known.created, known.fingerprint === null ? known.updated : Math.max(now, known.updated), fingerprint)
    : metaEntry(since ?? now, since ?? now, fingerprint);
}

/** The entry of a create or update through the proxy at `now`: exact, and adopting the next read's fingerprint. */
export function writtenEntry(known: MetaEntry | undefined, now: number, created: boolean): MetaEntry {
  return metaEntry(created || !known ? now : known.created, now, null);
}

/**
 * createTime/updateTime for resources v1 keeps no times for: exact when the write went through the
 * proxy, the time first seen otherwise, and `updated` moved when a read shows the record changed.
 * One store per proxy: the times describe the resource, the same for every caller who may see it.
 */
export class MetaStore implements TimesStore {
  private readonly entries: Map<string, MetaEntry>;

  constructor(
    entries: Map<string, MetaEntry> = new Map(),
    private readonly journal?: MetaJournal,
    // a journal that cannot be written does not fail the request: v1 already has the change
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.entries = entries;
  }

  private async persist(changes: readonly MetaChange[], durable: boolean): Promise<void> {
    try {
      await this.journal?.append(changes, durable);
    } catch (err) {
      this.onError(err);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The times of records read from v1 (`since`: the record's own creation time, if v1 has one, as
   * the start of an unseen record's history). Persisting first sightings is not waited for.
   */
  observe(seen: readonly Sighting[], now: number): MetaTimes[] {
    const changes: MetaChange[] = [];
    const times = seen.map(({ key, fingerprint, since }) => {
      const known = this.entries.get(key);
      const entry = nextEntry(known, fingerprint, since, now);
      if (entry === known) return known;
      this.entries.set(key, entry);
      changes.push({ key, entry });
      return entry;
    });
    if (changes.length > 0) void this.persist(changes, false);
    return times;
  }

  /** A create or update through the proxy, at `now`; waits until the journal has it. */
  async written(key: string, now: number, created: boolean): Promise<MetaTimes> {
    const entry = writtenEntry(this.entries.get(key), now, created);
    this.entries.set(key, entry);
    await this.persist([{ key, entry }], true);
    return entry;
  }

  /** A delete through the proxy. */
  async removed(key: string): Promise<void> {
    if (!this.entries.delete(key)) return;
    await this.persist([{ key, removed: true }], true);
  }

  async close(): Promise<void> {
    await this.journal?.close();
  }
}
