import { createHash } from 'node:crypto'
import { COUNT_TERMS } from './terms'
// The Lua scripts of the Redis driver: each runs as one atomic step in Redis, so a movie and
// its two index entries change together, and a compare-and-set has one winner. A write that
// changed the log appends its change to the log's history stream (trimmed to about
// HISTORY_BOUND entries) and PUBLISHes the owner on the namespace's changed channel, in the
// same step: no change without its entry, no entry without its change.

/** The changes a log's history keeps, at least (XADD MAXLEN ~: Redis trims whole nodes). */
export const HISTORY_BOUND = 1000

/**
 * KEYS: movie, date index, changes, history. ARGV: value expected, value, date member before,
 * date member after, the changed channel, the owner, the tag prefix, the id, the terms before
 * and after (`redis/terms.ts`). An edit counts its movie's terms at once: out, if they were
 * counted, and in (an edit of a movie still pending takes it out of `pending`).
 */
export const REPLACE = `${COUNT_TERMS}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('SISMEMBER', ARGV[7] .. 'counted', ARGV[8]) == 1 then count(ARGV[7], ARGV[8], ARGV[9], -1) end
count(ARGV[7], ARGV[8], ARGV[10], 1)
redis.call('SET', KEYS[1], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[2], 0, ARGV[4])
redis.call('INCR', KEYS[3])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ${HISTORY_BOUND}, '*', 'type', 'updated', 'movie', ARGV[2])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1`

/**
 * KEYS: movie, id index, date index, changes, history. ARGV: value expected, id, date member,
 * the changed channel, the owner, the tag prefix, the terms.
 */
export const REMOVE = `${COUNT_TERMS}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('SISMEMBER', ARGV[6] .. 'counted', ARGV[2]) == 1 then count(ARGV[6], ARGV[2], ARGV[7], -1) end
redis.call('SREM', ARGV[6] .. 'pending', ARGV[2])
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[3])
redis.call('INCR', KEYS[4])
redis.call('XADD', KEYS[5], 'MAXLEN', '~', ${HISTORY_BOUND}, '*', 'type', 'deleted', 'id', ARGV[2])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return 1`

/**
 * KEYS: history. ARGV: after (a stream id, or '' for from the oldest entry), how many ('' for
 * all). The entries after `after`, or nil when `after` is not an entry of the stream (trimmed,
 * dropped, never this log's).
 */
export const CHANGES_AFTER = `local from = '-'
if ARGV[1] ~= '' then
  if #redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1]) == 0 then return false end
  from = '(' .. ARGV[1]
end
if ARGV[2] == '0' then return {} end
if ARGV[2] == '' then return redis.call('XRANGE', KEYS[1], from, '+') end
return redis.call('XRANGE', KEYS[1], from, '+', 'COUNT', tonumber(ARGV[2]))`

/** KEYS: history. The id of its last entry, or nil. */
export const LATEST_CHANGE = `local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then return false end
return last[1][1]`

/**
 * KEYS: an index, changes. ARGV: start, stop (BYLEX, as ZRANGE takes them), count, '1' for
 * REV, the movie key prefix, where the id starts in a member (1, or 25 after a date and '|'),
 * the changes count the caller's cache was filled at.
 * A page's members and the changes count, read together; the movies too when the count is not
 * the caller's (its cache may be old), in the same round trip. The movie keys are built here
 * from the members: they share the index's hash tag, so on a cluster they are in its slot,
 * which Redis Cluster allows a script.
 */
export const PAGE = `local args = {'ZRANGE', KEYS[1], ARGV[1], ARGV[2], 'BYLEX'}
if ARGV[4] == '1' then table.insert(args, 'REV') end
table.insert(args, 'LIMIT')
table.insert(args, 0)
table.insert(args, tonumber(ARGV[3]))
local members = redis.call(unpack(args))
local changes = redis.call('GET', KEYS[2]) or '0'
if changes == ARGV[7] or #members == 0 then return {members, changes} end
local keys = {}
local start = tonumber(ARGV[6])
for i, member in ipairs(members) do keys[i] = ARGV[5] .. string.sub(member, start) end
return {members, changes, redis.call('MGET', unpack(keys))}`

// The store-wide driver (redis.ts): every key of one log shares a hash tag, so the keys a
// script builds from a prefix (PAGE's movies, DROP's) are in the slot of the keys it names.

/**
 * KEYS: id index, date index, changes, history, then each movie's key. ARGV: '1' when the owner
 * is in the namespace's owners set already (or is the one diary's), the changed channel, the
 * owner, the tag prefix, then each movie's value, id and date member. Create-if-absent, for
 * the movies of one owner that were added together (one round trip, one PUBLISH): answers one
 * result per movie, each as if it had been put alone after the ones before it. 1 stored; 0 not,
 * its id was taken. The movie's search and statistics terms are left to the next read that
 * needs them: its id joins `pending` (redis/terms.ts), which that read counts in first.
 * 2, storing nothing, for a log's first movies when ARGV[1] is not '1': the caller adds the
 * owner to the owners set (another slot, so not from here) and puts them again with '1'.
 * The first movie of a log starts its changes count at the server's time in microseconds: a
 * count no process can have cached for this log, even after a drop deleted the old one (the
 * count only grows by edits, far slower than a microsecond each).
 * One MGET finds the taken ids of the whole call, and the movies stored are written by one
 * MSET, one ZADD per index and one SADD: inside a script each command costs Redis more than
 * the movie it carries. Their history entries stay one XADD each, in order.
 */
export const PUTS = `local listed = ARGV[1] == '1' or redis.call('EXISTS', KEYS[1]) == 1
local found = redis.call('MGET', unpack(KEYS, 5))
local results, taken, stored = {}, {}, {}
local values, ids, dates = {}, {}, {}
for n = 1, #KEYS - 4 do
  local key = KEYS[n + 4]
  if found[n] or taken[key] then
    results[n] = 0
  elseif not listed then
    results[n] = 2
  else
    local value, id, date = ARGV[n * 3 + 2], ARGV[n * 3 + 3], ARGV[n * 3 + 4]
    taken[key] = true
    stored[#stored + 1] = value
    values[#values + 1] = key
    values[#values + 1] = value
    ids[#ids + 1] = 0
    ids[#ids + 1] = id
    dates[#dates + 1] = 0
    dates[#dates + 1] = date
    results[n] = 1
  end
end
if #stored == 0 then return results end
if redis.call('EXISTS', KEYS[3]) == 0 then
  local now = redis.call('TIME')
  redis.call('SET', KEYS[3], now[1] .. string.sub('00000' .. now[2], -6))
end
redis.call('MSET', unpack(values))
redis.call('ZADD', KEYS[1], unpack(ids))
redis.call('ZADD', KEYS[2], unpack(dates))
local pending = {}
for n = 2, #ids, 2 do pending[n / 2] = ids[n] end
redis.call('SADD', ARGV[4] .. 'pending', unpack(pending))
for _, value in ipairs(stored) do
  redis.call('XADD', KEYS[4], 'MAXLEN', '~', ${HISTORY_BOUND}, '*', 'type', 'added', 'movie', value)
end
redis.call('PUBLISH', ARGV[2], ARGV[3])
return results`

/**
 * KEYS: record, records (its owner's live record keys, scored by expiry). ARGV: value, ttl in
 * ms, the record's key, '1' to create only if absent. Expired names leave the set here, and
 * the set expires with its last record, so it holds live records only. A ttl of 0 or less writes
 * a record expired already: none is kept (PX takes no such ttl).
 */
export const RECORD = `local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local ttl = tonumber(ARGV[2])
if ttl <= 0 then
  if ARGV[4] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[3])
  return 1
end
local written
if ARGV[4] == '1' then
  written = redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl, 'NX')
else
  written = redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
end
if not written then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ms)
redis.call('ZADD', KEYS[2], ms + ttl, ARGV[3])
if redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1`

/**
 * KEYS: a sorted set of names (ids, or record keys). ARGV: the key prefix of its names, how
 * many, then any other prefixes of keys named by them (a word's ordered sets). Deletes the
 * first names' keys and takes the names out: one batch of a drop.
 */
export const DROP_BATCH = `local names = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
if #names == 0 then return 0 end
local keys = {}
for i, name in ipairs(names) do keys[i] = ARGV[1] .. name end
redis.call('DEL', unpack(keys))
for at = 3, #ARGV do
  for i, name in ipairs(names) do keys[i] = ARGV[at] .. name end
  redis.call('DEL', unpack(keys))
end
redis.call('ZREM', KEYS[1], unpack(names))
return #names`

/**
 * KEYS: the sets of names DROP_BATCH empties, then the log's other keys. ARGV: how many of
 * KEYS are such sets. The last step of a drop: 0 when a set has names again (an add came
 * after its batch), else deletes every key named and answers 1.
 */
export const DROP_LAST = `for n = 1, tonumber(ARGV[1]) do
  if redis.call('ZCARD', KEYS[n]) > 0 then return 0 end
end
redis.call('DEL', unpack(KEYS))
return 1`

const shas = new Map<string, string>()
/** A script's SHA-1, for EVALSHA (computed once per script). */
export function shaOf(script: string): string {
  let sha = shas.get(script)
  if (sha === undefined) {
    sha = createHash('sha1').update(script).digest('hex')
    shas.set(script, sha)
  }
  return sha
}
