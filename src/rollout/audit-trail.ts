import { AUDIT_KEEP, type ControlHead, type ControlStore } from '../stores/control-store.js';
import { type AuditRecord, sameOperations } from './control-document.js';

/** What `GET /admin/audit` may ask for. */
export interface AuditQuery {
  /** `resource` or `resource/op,op` (operations in any order) */
  route?: string | undefined;
  actor?: string | undefined;
  limit: number;
}

function parseRecord(text: string): AuditRecord | undefined {
  try {
    const r = JSON.parse(text) as AuditRecord;
    return typeof r === 'object' && r !== null && typeof r.action === 'string' && typeof r.actor === 'string' && Number.isInteger(r.seq) ? r : undefined;
  } catch {
    return undefined;
  }
}

/**
 * This replica's copy of the fleet's audit trail (newest first, the last AUDIT_KEEP records): what
 * the admin pages read (also while Redis is away), and what a replica re-seeds a lost state with.
 * Kept up by reading only what is new since the record it holds last; one read at a time.
 */
export class AuditTrail {
  private records: AuditRecord[] = [];
  private seen: { epoch: string; seq: number } = { epoch: '', seq: 0 };
  private reading: Promise<void> = Promise.resolve();

  constructor(private readonly store: ControlStore) {}

  /** Reads what the store has beyond what this copy holds, up to `head` at least. */
  catchUp(head: ControlHead): Promise<void> {
    const run = this.reading.then(() => this.read(head));
    this.reading = run.catch(() => undefined);
    return run;
  }

  private async read(head: ControlHead): Promise<void> {
    const sameEpoch = head.epoch === this.seen.epoch;
    if (sameEpoch && head.auditSeq <= this.seen.seq) return;
    const after = sameEpoch ? this.seen.seq : 0;
    // newest first, consecutive: more may have come since `head`, so read on until the last one held
    let count = sameEpoch ? head.auditSeq - after : AUDIT_KEEP;
    let fresh: AuditRecord[] = [];
    for (let round = 0; round < 4; round += 1) {
      const texts = await this.store.audit(Math.min(count, AUDIT_KEEP));
      fresh = texts.map(parseRecord).filter((r): r is AuditRecord => r !== undefined);
      const oldest = fresh.at(-1)?.seq ?? 0;
      if (oldest <= after + 1 || texts.length < count || count >= AUDIT_KEEP) break;
      count = Math.min(AUDIT_KEEP, count + oldest - after);
    }
    fresh = fresh.filter((r) => r.seq > after);
    this.records = (sameEpoch ? [...fresh, ...this.records] : fresh).slice(0, AUDIT_KEEP);
    this.seen = { epoch: head.epoch, seq: Math.max(fresh[0]?.seq ?? after, sameEpoch ? after : 0) };
  }

  /** Oldest first: what a re-seed writes. */
  oldestFirst(): AuditRecord[] {
    return [...this.records].reverse();
  }

  query(q: AuditQuery): AuditRecord[] {
    const [resource, ops] = (q.route ?? '').split('/');
    const wanted = ops?.split(',');
    const out: AuditRecord[] = [];
    for (const r of this.records) {
      if (out.length >= q.limit) break;
      if (q.actor !== undefined && r.actor !== q.actor) continue;
      if (resource !== undefined && resource !== '' && r.route?.resource !== resource) continue;
      if (wanted !== undefined && !sameOperations(r.route?.operations ?? [], wanted)) continue;
      out.push(r);
    }
    return out;
  }
}
