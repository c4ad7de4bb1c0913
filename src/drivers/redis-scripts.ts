// The Lua scripts of the Redis driver: each runs as one atomic step in Redis, so a movie and
// its two index entries change together, and a compare-and-set has one winner.

/** KEYS: movie, id index, date index. ARGV: value, id, date member. Create-if-absent. */
export const PUT = `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], 0, ARGV[2])
redis.call('ZADD', KEYS[3], 0, ARGV[3])
return 1`

// Edits and deletes count themselves in a changes key: a process's cache of movies by id is
// good for as long as that count is what it was when the cache was filled (see PAGE).

/** KEYS: movie, date index, changes. ARGV: value expected, value next, old member, new member. */
export const REPLACE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[2], 0, ARGV[4])
redis.call('INCR', KEYS[3])
return 1`

/** KEYS: movie, id index, date index, changes. ARGV: value expected, id, date member. */
export const REMOVE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[3])
redis.call('INCR', KEYS[4])
return 1`

/**
 * KEYS: an index, changes. ARGV: start, stop (BYLEX, as ZRANGE takes them), count, '1' for
 * REV, the movie key prefix, where the id starts in a member (1, or 25 after a date and '|'),
 * the changes count the caller's cache was filled at.
 * A page's members and the changes count, read together; the movies too when the count is not
 * the caller's (its cache may be old), in the same round trip. The movie keys are built here
 * from the members, which a standalone Redis allows (a cluster would not; it gets the scan
 * driver).
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
