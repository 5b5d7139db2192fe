/**
 * The Lua scripts of the Redis answer page backend, one a step: `OPEN` (within the bounds), `READ`,
 * `ANSWER` (store the answer and close the page together) and `TAKE`. Keys under the prefix:
 * `page:<id>`, `answer:<id>`, `binding:<digest>` (each with its own `PXAT` expiry), and the
 * bookkeeping of the bounds: `live` (a sorted set of pages by expiry), `client:<client>` (one per
 * client), `info` (a hash: a page's bytes, binding and client) and `bytes` (the total). Every
 * script that admits first releases what expired pages held. ARGV[1] is always the prefix (hash-tagged,
 * so every key is in one Redis Cluster slot), and KEYS[1] a key under it (`live`), which routes the script there.
 */
import { NOW_MS } from './luaClock.js';

/** Shared by the scripts: the clock, and forgetting a page's share of the bounds. */
const PAGE_ACCOUNTING = `${NOW_MS}
local p = ARGV[1]
local live, info, total = p .. 'live', p .. 'info', p .. 'bytes'
local function parse(entry)
  local a = string.find(entry, ' ', 1, true)
  local b = string.find(entry, ' ', a + 1, true)
  return tonumber(string.sub(entry, 1, a - 1)), string.sub(entry, a + 1, b - 1), string.sub(entry, b + 1)
end
local function forget(id)
  local entry = redis.call('HGET', info, id)
  if entry then
    local bytes, _, client = parse(entry)
    redis.call('DECRBY', total, bytes)
    redis.call('ZREM', p .. 'client:' .. client, id)
    redis.call('HDEL', info, id)
  end
  redis.call('ZREM', live, id)
end
local function first(key, now)
  local head = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  local score = tonumber(head[2] or '')
  if score == nil then return 0 end
  return math.max(0, score - now)
end
local function open_record(id)
  if not id or redis.call('EXISTS', p .. 'answer:' .. id) == 1 then return false end
  return redis.call('GET', p .. 'page:' .. id)
end
`;

/**
 * Opens a page. ARGV: prefix, id, record, binding digest, client, expiresAt, max per client, max
 * pages, max bytes, overhead bytes. Returns 'opened', 'exists', or {limit, max, ms until the first
 * counted page expires}.
 */
export const OPEN = `${PAGE_ACCOUNTING}
local id, record, digest, client, expires = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local now = now_ms()
for _, old in ipairs(redis.call('ZRANGEBYSCORE', live, '-inf', now, 'LIMIT', 0, 1000)) do forget(old) end
if redis.call('EXISTS', p .. 'page:' .. id) == 1 or redis.call('HEXISTS', info, id) == 1 then return 'exists' end
local mine = p .. 'client:' .. client
local bytes = #record + tonumber(ARGV[10])
if redis.call('ZCARD', mine) >= tonumber(ARGV[7]) then return {'maxPagesPerClient', ARGV[7], first(mine, now)} end
if redis.call('ZCARD', live) >= tonumber(ARGV[8]) then return {'maxPages', ARGV[8], first(live, now)} end
if tonumber(redis.call('GET', total) or '0') + bytes > tonumber(ARGV[9]) then
  return {'maxHeldBytes', ARGV[9], first(live, now)}
end
redis.call('SET', p .. 'page:' .. id, record, 'PXAT', expires)
redis.call('SET', p .. 'binding:' .. digest, id, 'PXAT', expires)
redis.call('ZADD', live, expires, id)
redis.call('ZADD', mine, expires, id)
redis.call('HSET', info, id, bytes .. ' ' .. digest .. ' ' .. client)
redis.call('INCRBY', total, bytes)
return 'opened'
`;

/** The record of an open page. ARGV: prefix, 'id' or 'binding', the page id or binding digest. */
export const READ = `${PAGE_ACCOUNTING}
local id = ARGV[3]
if ARGV[2] == 'binding' then id = redis.call('GET', p .. 'binding:' .. ARGV[3]) end
return open_record(id)
`;

/**
 * Stores an answer and closes its page. ARGV: prefix, id, answer, expiresAt, max bytes. Returns
 * 'stored', 'closed' (the page is not open), or {'maxHeldBytes', max, ms until the first page expires}.
 */
export const ANSWER = `${PAGE_ACCOUNTING}
local id, answer, expires = ARGV[2], ARGV[3], ARGV[4]
local entry = redis.call('HGET', info, id)
if not entry or not open_record(id) then return 'closed' end
local bytes, digest, client = parse(entry)
if tonumber(redis.call('GET', total) or '0') + #answer > tonumber(ARGV[5]) then
  return {'maxHeldBytes', ARGV[5], first(live, now_ms())}
end
redis.call('SET', p .. 'answer:' .. id, answer, 'PXAT', expires)
redis.call('SET', p .. 'binding:' .. digest, id, 'PXAT', expires)
redis.call('HSET', info, id, (bytes + #answer) .. ' ' .. digest .. ' ' .. client)
redis.call('INCRBY', total, #answer)
redis.call('ZADD', live, 'XX', 'GT', expires, id)
redis.call('ZADD', p .. 'client:' .. client, 'XX', 'GT', expires, id)
return 'stored'
`;

/** Takes the answer of the page filed under a binding, once, and forgets the page. ARGV: prefix, digest. */
export const TAKE = `${PAGE_ACCOUNTING}
local binding = p .. 'binding:' .. ARGV[2]
local id = redis.call('GET', binding)
if not id then return false end
local answer = redis.call('GET', p .. 'answer:' .. id)
if not answer then return false end
redis.call('DEL', p .. 'answer:' .. id, p .. 'page:' .. id, binding)
forget(id)
return answer
`;
