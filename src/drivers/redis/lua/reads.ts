// The read scripts of the Redis driver over a log's history and its two orders.

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
