import type { Redis } from 'ioredis';
import type { FleetChange, FleetState, FleetStore } from './fleet-state.js';
import { onRedis } from './state-store-error.js';

// one round trip, atomic: apply the change, bump the version, keep it, announce it
const CHANGE = `
local raw = redis.call('GET', KEYS[1])
local s = raw and cjson.decode(raw) or nil
if not s then
  local t = redis.call('TIME')
  s = {epoch = t[1] .. '.' .. t[2], version = 0, kill = ''}
end
s.rollbacks = s.rollbacks or {}
s.progress = s.progress or {}
local c = cjson.decode(ARGV[1])
local applied = 1
if c.kind == 'progress' then
  local cur = s.progress[c.key]
  if (cur and cur.rev or 0) ~= c.rev - 1 then applied = 0 else s.progress[c.key] = {rev = c.rev, text = c.text} end
elseif c.kind == 'kill' then
  if s.kill == c.kill then applied = 0 else s.kill = c.kill end
elseif c.kind == 'config' then
  if s.digest == c.digest then applied = 0 else s.digest = c.digest end
else
  local now = tonumber(c.now)
  for key, r in pairs(s.rollbacks) do
    if r['until'] <= now and key ~= c.key then s.rollbacks[key] = nil end
  end
  local r = s.rollbacks[c.key]
  if r and r['until'] > now then applied = 0
  else s.rollbacks[c.key] = {['until'] = tonumber(c['until']), count = (r and r.count or 0) + 1} end
end
if applied == 1 then
  s.version = s.version + 1
  if next(s.rollbacks) == nil then s.rollbacks = nil end
  if next(s.progress) == nil then s.progress = nil end
  local text = cjson.encode(s)
  redis.call('SET', KEYS[1], text)
  redis.call('PUBLISH', ARGV[2], s.version)
  return {1, text}
end
return {0, raw}`;

function parse(text: string | null | undefined): FleetState {
  if (!text) return { epoch: '', version: 0, kill: '', rollbacks: {}, digest: '', progress: {} };
  const s = JSON.parse(text) as Partial<FleetState>;
  return {
    epoch: String(s.epoch ?? ''),
    version: Number(s.version ?? 0),
    kill: s.kill === 'on' || s.kill === 'off' ? s.kill : '',
    rollbacks: s.rollbacks ?? {},
    digest: String(s.digest ?? ''),
    progress: s.progress ?? {},
  };
}

/** The fleet state on Redis: one key, changed by one atomic script that announces each new version on `topic`. */
export class RedisFleetState implements FleetStore {
  constructor(
    private readonly redis: Redis,
    readonly topic: string,
    private readonly key = 'v2proxy:control',
  ) {}

  async read(): Promise<FleetState> {
    return parse(await onRedis(() => this.redis.get(this.key)));
  }

  async seed(state: FleetState): Promise<void> {
    await onRedis(() => this.redis.set(this.key, JSON.stringify(state), 'NX'));
  }

  async change(change: FleetChange): Promise<{ state: FleetState; applied: boolean }> {
    const [applied, text] = (await onRedis(() => this.redis.eval(CHANGE, 1, this.key, JSON.stringify(change), this.topic))) as [number, string | null];
    return { state: parse(text), applied: applied === 1 };
  }
}
