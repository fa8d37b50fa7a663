import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { apiError } from '../errors/error-registry.js';
import { AUDIT_KEEP, type CommandMark, type ControlHead, type ControlStore, type ControlWrite, type StoredControl, seedRank } from './control-store.js';
import { onRedis } from './state-store-error.js';

// Both scripts answer {written (1 or 0), the hash as it is afterwards}; a written state is announced.

// over the expected head (or, given none, only when there is no state), appending the audit records
// and recording the command (KEYS[3]) in the same step. Fenced: run later than its deadline on
// Redis's clock (it waited in a stalled Redis past the window its writer waits for it), it writes
// nothing ({2}); a command recorded already writes nothing either ({3, its record}).
// ARGV: expected epoch ('' for none), expected version, document, new epoch, topic, audit kept,
// deadline (µs, Redis's clock), the command's nonce, its record, its record's time (ms), records…
const WRITE = `
local t = redis.call('TIME')
if tonumber(t[1]) * 1000000 + tonumber(t[2]) > tonumber(ARGV[7]) then return {2} end
local done = redis.call('HGET', KEYS[3], 'record')
if done then return {3, done} end
local cur = redis.call('HMGET', KEYS[1], 'epoch', 'version', 'auditSeq')
local n = #ARGV - 10
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
for i = 11, #ARGV do redis.call('LPUSH', KEYS[2], ARGV[i]) end
if n > 0 then redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[6]) - 1) end
redis.call('HSET', KEYS[3], 'nonce', ARGV[8], 'record', ARGV[9])
redis.call('PEXPIRE', KEYS[3], ARGV[10])
redis.call('PUBLISH', ARGV[5], epoch .. ':' .. version)
return {1, redis.call('HGETALL', KEYS[1])}`;

// a command that wrote nothing, recorded unless one is already: answers the record there, if any
const RECORD = `
local done = redis.call('HGET', KEYS[1], 'record')
if done then return done end
redis.call('HSET', KEYS[1], 'nonce', '', 'record', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return false`;

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

// past the fence, a little more: Redis's clock may run a little faster than this one
const FENCE_MARGIN_MS = 10;
// how often a write whose answer was lost asks whether it landed, while Redis does not answer
const ASK_EVERY_MS = 100;

export interface ControlFence {
  /** a write runs on Redis within this long of its writer's last look at Redis's clock, or never (REDIS_TIMEOUT_MS) */
  windowMs: number;
  /** how long a write whose answer was lost waits for Redis to tell whether it landed */
  outcomeWaitMs: number;
}

/**
 * The fleet's control state on Redis: a hash (the head's fields and the document) changed only by
 * two atomic scripts, each announcing the state it wrote on `topic` (`epoch:version`); the audit
 * trail a list beside it, newest first, the last AUDIT_KEEP records; each command's record a hash
 * of its own, written with the change it made.
 */
export class RedisControlStore implements ControlStore {
  readonly kind = 'redis';

  constructor(
    private readonly redis: Redis,
    readonly topic: string,
    private readonly fence: ControlFence = { windowMs: 500, outcomeWaitMs: 5_000 },
    private readonly key = 'v2proxy:control-state',
    private readonly auditKey = 'v2proxy:audit',
    private readonly commandPrefix = 'v2proxy:command:',
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

  /**
   * The write, fenced: Redis's clock is read first (a Redis that does not answer that has been sent
   * nothing that writes), and the write refuses to run past that time and the fence's window. Its
   * answer lost (Redis stalled or dropped the connection meanwhile), it waits out the window and then
   * asks whether the command's record is there: the write landed, or it never will.
   */
  async write(
    expected: ControlHead | null,
    text: string,
    audit: readonly string[],
    epoch: string,
    command: CommandMark = { id: randomBytes(12).toString('base64url'), record: '{}', ttlMs: 600_000 },
  ): Promise<ControlWrite> {
    const [seconds, micros] = await onRedis(() => this.redis.time());
    const sentAt = performance.now();
    const deadline = Number(seconds) * 1_000_000 + Number(micros) + this.fence.windowMs * 1000;
    const nonce = `${process.pid}-${sentAt}-${Math.random()}`;
    const commandKey = this.commandPrefix + command.id;
    let answer: [number, unknown?];
    try {
      answer = (await this.redis.eval(
        WRITE,
        3,
        this.key,
        this.auditKey,
        commandKey,
        expected?.epoch ?? '',
        String(expected?.version ?? 0),
        text,
        epoch,
        this.topic,
        String(AUDIT_KEEP),
        String(deadline),
        nonce,
        command.record,
        String(command.ttlMs),
        ...audit,
      )) as [number, unknown?];
    } catch (err) {
      // a script Redis refused is no lost answer
      if ((err as Error).name === 'ReplyError') throw err;
      return this.outcome(commandKey, nonce, sentAt);
    }
    const [ok, second] = answer;
    if (ok === 2) throw apiError('STATE_STORE_UNAVAILABLE', { reason: 'it answered too late; the change did not apply' });
    if (ok === 3) return { ok: false, stored: null, recorded: second as string };
    const stored = storedOf(second as string[]);
    return ok === 1 && stored ? { ok: true, stored } : { ok: false, stored };
  }

  /**
   * What became of a write whose answer was lost: once its fence has passed nothing can land any
   * more, so its command's record tells (there: it landed; not: it never will). Asked until Redis
   * answers, for at most the outcome's wait.
   */
  private async outcome(commandKey: string, nonce: string, sentAt: number): Promise<ControlWrite> {
    const settled = sentAt + this.fence.windowMs + FENCE_MARGIN_MS;
    const givesUp = settled + this.fence.outcomeWaitMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, settled - performance.now())));
    for (;;) {
      try {
        const [mark, record] = await this.redis.hmget(commandKey, 'nonce', 'record');
        if (mark === nonce) {
          const stored = await this.redis.hgetall(this.key);
          const now = storedOf(Object.entries(stored).flat());
          // (landed, and the state lost since: made again on what is there)
          return now ? { ok: true, stored: now } : { ok: false, stored: null };
        } else if (record !== null && record !== undefined) return { ok: false, stored: null, recorded: record };
        else throw apiError('STATE_STORE_UNAVAILABLE', { reason: 'no answer in time; the change did not apply' });
      } catch (err) {
        if ((err as Error).name === 'ApiError') throw err;
        // Redis still away: asked again
      }
      if (performance.now() >= givesUp) {
        throw apiError('COMMAND_OUTCOME_UNKNOWN', { until: new Date(Date.now() - (performance.now() - settled)).toISOString() });
      }
      await new Promise((resolve) => setTimeout(resolve, ASK_EVERY_MS));
    }
  }

  async command(id: string): Promise<string | null> {
    return onRedis(() => this.redis.hget(this.commandPrefix + id, 'record'));
  }

  async recordCommand(command: CommandMark): Promise<string | null> {
    return (await onRedis(() => this.redis.eval(RECORD, 1, this.commandPrefix + command.id, command.record, String(command.ttlMs)))) as string | null;
  }

  async seed(from: ControlHead, text: string, audit: readonly string[], epoch: string): Promise<ControlWrite> {
    const rank = seedRank(from);
    const args = [from.epoch, String(from.version), rank.epoch, String(rank.version), text, epoch];
    const [ok, flat] = (await onRedis(() => this.redis.eval(SEED, 2, this.key, this.auditKey, ...args, this.topic, String(AUDIT_KEEP), ...audit))) as [
      number,
      string[],
    ];
    const stored = storedOf(flat);
    return ok === 1 && stored ? { ok: true, stored } : { ok: false, stored };
  }

  async audit(count: number): Promise<string[]> {
    return onRedis(() => this.redis.lrange(this.auditKey, 0, Math.max(0, count - 1)));
  }
}
