import type { Redis } from 'ioredis';
import { AUDIT_KEEP, type ControlHead, type ControlStore, type ControlWrite, type StoredControl, seedRank } from './control-store.js';
import { onRedis } from './state-store-error.js';

// Both scripts answer {written (1 or 0), the hash as it is afterwards}; a written state is announced.

// over the expected head (or, given none, only when there is no state), appending the audit records.
// ARGV: expected epoch ('' for none), expected version, document, new epoch, topic, audit kept, records…
const WRITE = `
local cur = redis.call('HMGET', KEYS[1], 'epoch', 'version', 'auditSeq')
local n = #ARGV - 6
local epoch, version, seq
if ARGV[1] == '' then
  if cur[1] then return {0, redis.call('HGETALL', KEYS[1])} end
  epoch = ARGV[4]; version = 1; seq = n
  redis.call('DEL', KEYS[2])
else
  if (not cur[1]) or cur[1] ~= ARGV[1] or tonumber(cur[2]) ~= tonumber(ARGV[2]) then return {0, redis.call('HGETALL', KEYS[1])} end
  epoch = cur[1]; version = tonumber(cur[2]) + 1; seq = tonumber(cur[3]) + n
end
redis.call('HSET', KEYS[1], 'epoch', epoch, 'version', version, 'auditSeq', seq, 'doc', ARGV[3])
for i = 7, #ARGV do redis.call('LPUSH', KEYS[2], ARGV[i]) end
if n > 0 then redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[6]) - 1) end
redis.call('PUBLISH', ARGV[5], epoch .. ':' .. version)
return {1, redis.call('HGETALL', KEYS[1])}`;

// a lost state seeded again from a replica's copy: see ControlStore.seed.
// ARGV: the copy's epoch and version, its rank's epoch and version, document, new epoch, topic, audit kept, records…
const SEED = `
local cur = redis.call('HMGET', KEYS[1], 'epoch', 'version', 'fromEpoch', 'fromVersion')
local take = false
if not cur[1] then take = true
elseif cur[1] == ARGV[1] then take = tonumber(cur[2]) < tonumber(ARGV[2])
elseif tonumber(cur[2]) == 1 then take = (not cur[3]) or (cur[3] == ARGV[3] and tonumber(cur[4]) < tonumber(ARGV[4])) end
if not take then return {0, redis.call('HGETALL', KEYS[1])} end
local n = #ARGV - 8
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[1], 'epoch', ARGV[6], 'version', 1, 'auditSeq', n, 'fromEpoch', ARGV[3], 'fromVersion', ARGV[4], 'doc', ARGV[5])
for i = 9, #ARGV do redis.call('LPUSH', KEYS[2], ARGV[i]) end
if n > 0 then redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[8]) - 1) end
redis.call('PUBLISH', ARGV[7], ARGV[6] .. ':1')
return {1, redis.call('HGETALL', KEYS[1])}`;

function headOf(fields: Record<string, string | null | undefined>): ControlHead | null {
  if (!fields.epoch) return null;
  return {
    epoch: fields.epoch,
    version: Number(fields.version ?? 0),
    auditSeq: Number(fields.auditSeq ?? 0),
    from: fields.fromEpoch ? { epoch: fields.fromEpoch, version: Number(fields.fromVersion ?? 0) } : null,
  };
}

function storedOf(flat: readonly string[]): StoredControl | null {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i] as string] = flat[i + 1] as string;
  const head = headOf(fields);
  return head ? { head, text: fields.doc ?? '{}' } : null;
}

/**
 * The fleet's control state on Redis: a hash (the head's fields and the document) changed only by
 * two atomic scripts, each announcing the state it wrote on `topic` (`epoch:version`); the audit
 * trail a list beside it, newest first, the last AUDIT_KEEP records.
 */
export class RedisControlStore implements ControlStore {
  readonly kind = 'redis';

  constructor(
    private readonly redis: Redis,
    readonly topic: string,
    private readonly key = 'v2proxy:control-state',
    private readonly auditKey = 'v2proxy:audit',
  ) {}

  async head(): Promise<ControlHead | null> {
    const [epoch, version, auditSeq, fromEpoch, fromVersion] = await onRedis(() =>
      this.redis.hmget(this.key, 'epoch', 'version', 'auditSeq', 'fromEpoch', 'fromVersion'),
    );
    return headOf({ epoch, version, auditSeq, fromEpoch, fromVersion });
  }

  async read(): Promise<StoredControl | null> {
    const all = await onRedis(() => this.redis.hgetall(this.key));
    return storedOf(Object.entries(all).flat());
  }

  /** Runs one of the two scripts: written or not, and what is stored afterwards. */
  private async run(script: string, args: readonly string[], audit: readonly string[]): Promise<ControlWrite> {
    const [ok, flat] = (await onRedis(() => this.redis.eval(script, 2, this.key, this.auditKey, ...args, this.topic, String(AUDIT_KEEP), ...audit))) as [
      number,
      string[],
    ];
    const stored = storedOf(flat);
    return ok === 1 && stored ? { ok: true, stored } : { ok: false, stored };
  }

  write(expected: ControlHead | null, text: string, audit: readonly string[], epoch: string): Promise<ControlWrite> {
    return this.run(WRITE, [expected?.epoch ?? '', String(expected?.version ?? 0), text, epoch], audit);
  }

  seed(from: ControlHead, text: string, audit: readonly string[], epoch: string): Promise<ControlWrite> {
    const rank = seedRank(from);
    return this.run(SEED, [from.epoch, String(from.version), rank.epoch, String(rank.version), text, epoch], audit);
  }

  async audit(count: number): Promise<string[]> {
    return onRedis(() => this.redis.lrange(this.auditKey, 0, Math.max(0, count - 1)));
  }
}
