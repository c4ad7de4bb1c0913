import { HISTORY_BOUND } from '../../../core/driver'
import { COUNT_TERMS } from './terms'

// The write scripts of the Redis driver: each runs as one atomic step in Redis, so a movie and
// its two index entries change together, and a compare-and-set has one winner. A write that
// changed the log appends its change to the log's history stream (trimmed to about
// HISTORY_BOUND entries, at least: XADD MAXLEN ~ trims whole nodes) and PUBLISHes the owner on
// the namespace's changed channel, in the same step: no change without its entry, no entry
// without its change.
// Every key of one log shares a hash tag, so the keys a script builds from a prefix (PAGE's
// movies, DROP_BATCH's) are in the slot of the keys it names.

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
