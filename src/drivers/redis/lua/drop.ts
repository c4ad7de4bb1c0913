// The scripts of a drop (redis/drop.ts): a log's keys deleted in batches, then the rest.

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
