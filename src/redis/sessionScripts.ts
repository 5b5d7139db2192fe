/** The Lua scripts of the Redis session fleet: `SAVE` (with the session limits), `LOAD`, `REMOVE`, `TAKE_PUSH`. */
import { NOW_MS } from './luaClock.js';

/** Shared by the scripts: the clock, and forgetting a session's share of the limits. ARGV[1] is the key prefix, ARGV[2] the session id. */
const ACCOUNTING = `${NOW_MS}
local prefix, id = ARGV[1], ARGV[2]
local live, info, total = prefix .. 'live', prefix .. 'live-info', prefix .. 'live-bytes'
local function forget(session)
  local entry = redis.call('HGET', info, session)
  if entry then
    local space = string.find(entry, ' ', 1, true)
    redis.call('DECRBY', total, tonumber(string.sub(entry, 1, space - 1)))
    local client = string.sub(entry, space + 1)
    if client ~= '' then redis.call('ZREM', prefix .. 'client:' .. client, session) end
    redis.call('HDEL', info, session)
  end
  redis.call('ZREM', live, session)
end
local function restart(session, now, ttl)
  local score = now + tonumber(ttl)
  redis.call('ZADD', live, 'XX', score, session)
  local entry = redis.call('HGET', info, session)
  if entry then
    local client = string.sub(entry, string.find(entry, ' ', 1, true) + 1)
    if client ~= '' then redis.call('ZADD', prefix .. 'client:' .. client, 'XX', score, session) end
  end
end
`;

/**
 * Saves a record unless a limit would be passed. KEYS[1]: the record. ARGV: prefix, id, record
 * JSON, ttl ms or 'inf', '1' when limited, max sessions, budget held bytes, max per client, client ('': none),
 * the record's held bytes.
 * Returns nil when saved, else {limit, ms until the first counted session expires or -1}.
 */
export const SAVE = `${ACCOUNTING}
local json, ttl, client, size = ARGV[3], ARGV[4], ARGV[9], tonumber(ARGV[10])
local now = now_ms()
forget(id)
if ARGV[5] == '1' then
  local expired = redis.call('ZRANGEBYSCORE', live, '-inf', now, 'LIMIT', 0, 1000)
  for _, session in ipairs(expired) do forget(session) end
  local function first(key)
    local head = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    local score = tonumber(head[2] or '')
    if score == nil or score == math.huge then return -1 end
    return math.max(0, score - now)
  end
  local mine = prefix .. 'client:' .. client
  if client ~= '' and redis.call('ZCARD', mine) >= tonumber(ARGV[8]) then return {'maxLegacySessionsPerClient', first(mine)} end
  if redis.call('ZCARD', live) >= tonumber(ARGV[6]) then return {'maxLegacySessions', first(live)} end
  local held = tonumber(redis.call('GET', total) or '0')
  if held + size > tonumber(ARGV[7]) then return {'legacySessionBudgetHeldBytes', first(live)} end
end
local score = '+inf'
if ttl == 'inf' then
  redis.call('SET', KEYS[1], json)
else
  redis.call('SET', KEYS[1], json, 'PX', ttl)
  score = now + tonumber(ttl)
end
redis.call('ZADD', live, score, id)
redis.call('HSET', info, id, size .. ' ' .. client)
redis.call('INCRBY', total, size)
if client ~= '' then redis.call('ZADD', prefix .. 'client:' .. client, score, id) end
return false
`;

/** Reads (ARGV[4] = '1') and/or restarts the idle clock (ARGV[3] = ttl ms, or 'inf': unchanged) of KEYS[1]. */
export const LOAD = `${ACCOUNTING}
local text = false
if ARGV[4] == '1' then
  text = redis.call('GET', KEYS[1])
  if not text then return false end
end
if ARGV[3] ~= 'inf' and redis.call('PEXPIRE', KEYS[1], ARGV[3]) == 1 then restart(id, now_ms(), ARGV[3]) end
return text
`;

/** Forgets a session: KEYS[1] its record, KEYS[2] its stream holder. */
export const REMOVE = `${ACCOUNTING}
redis.call('DEL', KEYS[1], KEYS[2])
forget(id)
return false
`;

/**
 * Takes a waiting push (KEYS: the session record, the session's push hash, the push's take record,
 * a hash of the take's name and the push; ARGV: the push id, the caller's deadline in ms since the
 * epoch, the take's name or '', how long a named take may be asked again in ms): its record, once,
 * and only while the session exists, or again to the same named take while its take record lives;
 * `false` otherwise; an error, consuming nothing, once Redis's clock is past the deadline.
 */
export const TAKE_PUSH = `
local t = redis.call('TIME')
if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > tonumber(ARGV[2]) then
  return redis.error_reply('DEADLINE the take arrived after its caller gave up')
end
local before = redis.call('HGET', KEYS[3], 'take')
if before then
  if ARGV[3] ~= '' and before == ARGV[3] then return redis.call('HGET', KEYS[3], 'push') end
  return false
end
local push = redis.call('HGET', KEYS[2], ARGV[1])
if not push then return false end
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[3], 'take', ARGV[3], 'push', push)
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
end
return push
`;
