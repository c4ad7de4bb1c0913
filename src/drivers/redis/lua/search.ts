// The search scripts of the Redis driver, over the words redis/terms.ts keeps: `SEARCH` (some
// matches, in any order) and `SEARCH_PAGE` (a page in the listing's order, from the words'
// sorted sets `wd:` and `wi:`). Both read only keys of the owner's hash tag.

/**
 * KEYS: words, and (to check) ids, counted. ARGV: the tag prefix, limit, the prefix, the least
 * string after it, then the whole words. The texts of at most `limit` movies holding every
 * whole word and a word starting with the prefix; when checked, nil while some movie's terms
 * are not counted yet. Driven by the smallest whole word's set (the prefix's word among them
 * when it starts one only; else each prefixed word's in turn), read by SSCAN a few hundred at a
 * time, each id checked against the other sets: it stops at the limit.
 */
export const SEARCH = `if KEYS[3] and redis.call('ZCARD', KEYS[2]) ~= redis.call('SCARD', KEYS[3]) then return false end
local prefix = ARGV[1]
local limit = tonumber(ARGV[2])
local prefixed = redis.call('ZRANGE', KEYS[1], '[' .. ARGV[3], '(' .. ARGV[4], 'BYLEX')
if #prefixed == 0 then return {} end
for at, word in ipairs(prefixed) do prefixed[at] = prefix .. 'word:' .. word end
local whole = {}
for at = 5, #ARGV do
  local key = prefix .. 'word:' .. ARGV[at]
  local size = redis.call('SCARD', key)
  if size == 0 then return {} end
  whole[#whole + 1] = {key, size}
end
-- A prefix that starts one word only (a tag's term always) is that word, whole: it may be the rarest.
if #whole > 0 and #prefixed == 1 then whole[#whole + 1] = {prefixed[1], redis.call('SCARD', prefixed[1])} end
table.sort(whole, function(a, b) return a[2] < b[2] end)
local function holds(keys, id, every)
  for _, key in ipairs(keys) do
    local has = redis.call('SISMEMBER', key, id) == 1
    if every and not has then return false end
    if has and not every then return true end
  end
  return every
end
local others = {}
for at = 2, #whole do others[#others + 1] = whole[at][1] end
local found, seen = {}, {}
local function walk(key, check)
  local cursor = '0'
  repeat
    local reply = redis.call('SSCAN', key, cursor, 'COUNT', 500)
    cursor = reply[1]
    for _, id in ipairs(reply[2]) do
      if not seen[id] and check(id) then
        seen[id] = true
        found[#found + 1] = id
        if #found >= limit then return end
      end
    end
  until cursor == '0'
end
if #whole > 0 then
  walk(whole[1][1], function(id) return holds(others, id, true) and holds(prefixed, id, false) end)
else
  for _, key in ipairs(prefixed) do
    walk(key, function() return true end)
    if #found >= limit then break end
  end
end
if #found == 0 then return {} end
local keys = {}
for at, id in ipairs(found) do keys[at] = prefix .. 'movie:' .. id end
return redis.call('MGET', unpack(keys))`

/**
 * The most words a prefix alone may start for `SEARCH_PAGE` to merge their runs: each is one
 * ZRANGE of at most a page, in the script (a rare word's prefix, `rare1a`, starts 37 in the
 * bench); past it the matches are a good share of the diary, ordered by the core's walk.
 */
export const PREFIX_WORDS = 128

/**
 * KEYS: words, and (to check) ids, paged. ARGV: the tag prefix, limit, the prefix, the least
 * string after it, '1' for the order added (else by date), the first and last bound of the run
 * (ZRANGE BYLEX arguments, from the resume point on), '1' for REV, from, to, then the whole
 * words.
 * A search page in the listing's order: the texts of at most `limit` movies, read along the
 * driving word's ordered set (`wi:` or `wd:`) from the resume point, each within from..to and
 * each other word a SISMEMBER, stopping at the limit. Driven by the rarest whole word (the
 * prefix's word among them when it starts one only, as a tag's term does); with none, each of
 * the prefix's words is read as far as the limit and the runs merged. When
 * checked, nil while some movie's words are not in the ordered sets yet; 0 when a prefix alone
 * starts more than PREFIX_WORDS words (the caller orders `SEARCH`'s answer instead).
 */
export const SEARCH_PAGE = `if KEYS[3] and redis.call('ZCARD', KEYS[2]) ~= redis.call('SCARD', KEYS[3]) then return false end
local prefix = ARGV[1]
local limit = tonumber(ARGV[2])
if limit < 1 then return {} end
local added, rev, from, to = ARGV[5] == '1', ARGV[8] == '1', ARGV[9], ARGV[10]
local prefixed = redis.call('ZRANGE', KEYS[1], '[' .. ARGV[3], '(' .. ARGV[4], 'BYLEX')
if #prefixed == 0 then return {} end
local whole = {}
for at = 11, #ARGV do
  local key = prefix .. 'word:' .. ARGV[at]
  local size = redis.call('SCARD', key)
  if size == 0 then return {} end
  whole[#whole + 1] = {ARGV[at], size}
end
if #whole == 0 and #prefixed > ${PREFIX_WORDS} then return 0 end
-- A prefix that starts one word only (a tag's term always) is that word, whole: it may be the rarest.
if #whole > 0 and #prefixed == 1 then
  whole[#whole + 1] = {prefixed[1], redis.call('SCARD', prefix .. 'word:' .. prefixed[1])}
end
table.sort(whole, function(a, b) return a[2] < b[2] end)
local kind = added and 'wi:' or 'wd:'
-- A member's screening and id: \`id date\` by the order added, \`date|id\` by date.
local function split(member)
  if added then return string.sub(member, -23), string.sub(member, 1, -25) end
  return string.sub(member, 1, 23), string.sub(member, 25)
end
-- Up to n members of a word's run from the resume point, within range, that pass check.
local function take(word, n, check)
  local out = {}
  local start, stop = ARGV[6], ARGV[7]
  local batch = math.min(math.max(n * 2, 100), 1000)
  while true do
    local args = {'ZRANGE', prefix .. kind .. word, start, stop, 'BYLEX'}
    if rev then args[#args + 1] = 'REV' end
    args[#args + 1] = 'LIMIT'
    args[#args + 1] = 0
    args[#args + 1] = batch
    local members = redis.call(unpack(args))
    for _, member in ipairs(members) do
      local date, id = split(member)
      if date >= from and date <= to and check(id) then
        out[#out + 1] = member
        if #out >= n then return out end
      end
    end
    if #members < batch then return out end
    start = '(' .. members[#members]
  end
end
local found
if #whole > 0 then
  local others = {}
  for at = 2, #whole do others[#others + 1] = prefix .. 'word:' .. whole[at][1] end
  local sets = {}
  for at, word in ipairs(prefixed) do sets[at] = prefix .. 'word:' .. word end
  found = take(whole[1][1], limit, function(id)
    for _, key in ipairs(others) do
      if redis.call('SISMEMBER', key, id) == 0 then return false end
    end
    for _, key in ipairs(sets) do
      if redis.call('SISMEMBER', key, id) == 1 then return true end
    end
    return false
  end)
else
  -- Each word's first members merged: a movie holding two of the words is one member in both.
  local seen, all = {}, {}
  for _, word in ipairs(prefixed) do
    for _, member in ipairs(take(word, limit, function() return true end)) do
      if not seen[member] then
        seen[member] = true
        all[#all + 1] = member
      end
    end
  end
  if rev then table.sort(all, function(a, b) return a > b end) else table.sort(all) end
  found = {}
  for at = 1, math.min(limit, #all) do found[at] = all[at] end
end
if #found == 0 then return {} end
local keys = {}
for at, member in ipairs(found) do
  local _, id = split(member)
  keys[at] = prefix .. 'movie:' .. id
end
return redis.call('MGET', unpack(keys))`
