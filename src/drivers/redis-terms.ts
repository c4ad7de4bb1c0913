/**
 * Search and statistics on Redis: each movie's terms (`termsOf`) counted by the very script that
 * writes the movie, in keys of the owner's hash tag (so one cluster slot, as every key of a log):
 *
 * ```
 * {tag}:word:<word>     set of the ids of the movies holding the word
 * {tag}:wd:<word>       its movies again, as `screenedDate|id` at score 0: by date (lexical)
 * {tag}:wi:<word>       and as `id screenedDate`: in the order added (a space sorts before any
 *                       character of an id, so a shorter id first), each with its screening
 * {tag}:words           sorted set of the words held, at score 0 (a prefix is a lexical range)
 * {tag}:tallies         hash of the month counters, `YYYY-MM|kind|value` -> n
 * {tag}:links           sorted set of links scored by their screenings (2 and up: rewatched)
 * {tag}:seen:<link>     hash of a link's screenings, `YYYY-MM\ttitle` -> n
 * {tag}:counted         set of the ids whose terms are counted
 * {tag}:paged           set of the ids whose words are in `wd:` and `wi:` too
 * ```
 *
 * `counted` lets a log written before these keys (by an older movie-log) be counted once, movie
 * by movie (`COUNT_ONE`), while writers go on: a read script answers nil until every id is.
 */

import type { Movie } from '../core/movie'
import { termsOf } from '../core/tallies'

/** A movie's terms as the scripts read them: lines of words, counters, link, month, title. */
export function termsLines(movie: Movie): string {
  const terms = termsOf(movie)
  // No line break in any: words are letters and digits, a title holds no control character.
  return [
    terms.words.join(' '),
    terms.tallies.join(' '),
    terms.link,
    terms.month,
    terms.title,
    movie.screenedDate,
  ].join('\n')
}

/** The Lua function the write scripts share: counts a movie's terms in (1) or out (-1). */
export const COUNT_TERMS = `local function order(prefix, id, words, date, step)
  for word in string.gmatch(words, '%S+') do
    if step > 0 then
      redis.call('ZADD', prefix .. 'wd:' .. word, 0, date .. '|' .. id)
      redis.call('ZADD', prefix .. 'wi:' .. word, 0, id .. ' ' .. date)
    else
      redis.call('ZREM', prefix .. 'wd:' .. word, date .. '|' .. id)
      redis.call('ZREM', prefix .. 'wi:' .. word, id .. ' ' .. date)
    end
  end
  if step > 0 then redis.call('SADD', prefix .. 'paged', id)
  else redis.call('SREM', prefix .. 'paged', id) end
end
local function count(prefix, id, terms, step)
  local lines = {}
  for line in string.gmatch(terms .. '\\n', '([^\\n]*)\\n') do lines[#lines + 1] = line end
  for word in string.gmatch(lines[1], '%S+') do
    local key = prefix .. 'word:' .. word
    if step > 0 then
      redis.call('SADD', key, id)
      redis.call('ZADD', prefix .. 'words', 0, word)
    else
      redis.call('SREM', key, id)
      if redis.call('EXISTS', key) == 0 then redis.call('ZREM', prefix .. 'words', word) end
    end
  end
  order(prefix, id, lines[1], lines[6], step)
  for key in string.gmatch(lines[2], '%S+') do
    if redis.call('HINCRBY', prefix .. 'tallies', key, step) <= 0 then
      redis.call('HDEL', prefix .. 'tallies', key)
    end
  end
  local link = lines[3]
  if tonumber(redis.call('ZINCRBY', prefix .. 'links', step, link)) <= 0 then
    redis.call('ZREM', prefix .. 'links', link)
  end
  local seen = prefix .. 'seen:' .. link
  local field = lines[4] .. '\\t' .. lines[5]
  if redis.call('HINCRBY', seen, field, step) <= 0 then redis.call('HDEL', seen, field) end
  if step > 0 then redis.call('SADD', prefix .. 'counted', id)
  else redis.call('SREM', prefix .. 'counted', id) end
end
`

/**
 * KEYS: words, ids, counted. ARGV: the tag prefix, limit, the prefix, the least string after
 * it, then the whole words. The texts of at most `limit` movies holding every whole word and a
 * word starting with the prefix; nil while some movie's terms are not counted yet. Driven by
 * the smallest whole word's set (else each prefixed word's in turn), read by SSCAN a few
 * hundred at a time, each id checked against the other sets: it stops at the limit.
 */
export const SEARCH = `if redis.call('ZCARD', KEYS[2]) ~= redis.call('SCARD', KEYS[3]) then return false end
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

/** The most words a prefix alone may start for `SEARCH_PAGE` to merge their runs. */
export const PREFIX_WORDS = 32

/**
 * KEYS: words, ids, paged. ARGV: the tag prefix, limit, the prefix, the least string after it,
 * '1' for the order added (else by date), the first and last bound of the run (ZRANGE BYLEX
 * arguments, from the resume point on), '1' for REV, from, to, then the whole words.
 * A search page in the listing's order: the texts of at most `limit` movies, read along the
 * driving word's ordered set (`wi:` or `wd:`) from the resume point, each within from..to and
 * each other word a SISMEMBER, stopping at the limit. Driven by the rarest whole word; with
 * none, each of the prefix's words is read as far as the limit and the runs merged. Nil while
 * some movie's words are not in the ordered sets yet; 0 when a prefix alone starts more than
 * PREFIX_WORDS words (the caller orders `SEARCH`'s answer instead).
 */
export const SEARCH_PAGE = `if redis.call('ZCARD', KEYS[2]) ~= redis.call('SCARD', KEYS[3]) then return false end
local prefix = ARGV[1]
local limit = tonumber(ARGV[2])
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

/**
 * KEYS: tallies, links, ids, counted. ARGV: the tag prefix, the first month, the last. Summed
 * here over the months between: each month's total (its `w` counters), each `kind|value`
 * counter, and each link screened more than once in all, its screenings by title; nil while
 * some movie's terms are not counted yet.
 */
export const TALLIES = `if redis.call('ZCARD', KEYS[3]) ~= redis.call('SCARD', KEYS[4]) then return false end
local from, to = ARGV[2], ARGV[3]
local months, kinds = {}, {}
local counters = redis.call('HGETALL', KEYS[1])
for at = 1, #counters, 2 do
  local key, n = counters[at], tonumber(counters[at + 1])
  local month = string.sub(key, 1, 7)
  if month >= from and month <= to then
    local kind = string.sub(key, 9)
    kinds[kind] = (kinds[kind] or 0) + n
    if string.sub(kind, 1, 1) == 'w' then months[month] = (months[month] or 0) + n end
  end
end
local flat = function(counts)
  local out = {}
  for key, n in pairs(counts) do
    out[#out + 1] = key
    out[#out + 1] = tostring(n)
  end
  return out
end
local repeats = {}
for _, link in ipairs(redis.call('ZRANGE', KEYS[2], 2, '+inf', 'BYSCORE')) do
  local titles = {}
  local seen = redis.call('HGETALL', ARGV[1] .. 'seen:' .. link)
  for at = 1, #seen, 2 do
    local month = string.sub(seen[at], 1, 7)
    if month >= from and month <= to then
      local title = string.sub(seen[at], 9)
      titles[title] = (titles[title] or 0) + tonumber(seen[at + 1])
    end
  end
  for title, n in pairs(titles) do
    repeats[#repeats + 1] = link
    repeats[#repeats + 1] = title
    repeats[#repeats + 1] = tostring(n)
  end
end
return {flat(months), flat(kinds), repeats}`

/**
 * KEYS: movie, counted. ARGV: the tag prefix, id, the movie's text, its terms. Counts a movie
 * written before terms were, if it is still that text and not counted yet.
 */
export const COUNT_ONE = `${COUNT_TERMS}
if redis.call('GET', KEYS[1]) ~= ARGV[3] then return 0 end
if redis.call('SISMEMBER', KEYS[2], ARGV[2]) == 1 then return 0 end
count(ARGV[1], ARGV[2], ARGV[4], 1)
return 1`

/**
 * KEYS: movie, counted, paged. ARGV: the tag prefix, id, the movie's text, its terms. Puts the
 * words of a movie counted by an older movie-log (before the ordered sets) in those sets, if it
 * is still that text, counted, and not there yet.
 */
export const PAGE_ONE = `${COUNT_TERMS}
if redis.call('GET', KEYS[1]) ~= ARGV[3] then return 0 end
if redis.call('SISMEMBER', KEYS[2], ARGV[2]) == 0 then return 0 end
if redis.call('SISMEMBER', KEYS[3], ARGV[2]) == 1 then return 0 end
local lines = {}
for line in string.gmatch(ARGV[4] .. '\\n', '([^\\n]*)\\n') do lines[#lines + 1] = line end
order(ARGV[1], ARGV[2], lines[1], lines[6], 1)
return 1`

/**
 * KEYS: ids, a set of ids (counted, or paged). ARGV: how many. Ids of movies not in that set:
 * whose terms are not counted yet, or whose words are not in the ordered sets yet.
 */
export const UNCOUNTED = `local missing = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if redis.call('SISMEMBER', KEYS[2], id) == 0 then
    missing[#missing + 1] = id
    if #missing >= tonumber(ARGV[1]) then break end
  end
end
return missing`
