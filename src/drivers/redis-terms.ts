/**
 * Search and statistics on Redis: each movie's terms (`termsOf`) counted by the very script that
 * writes the movie, in keys of the owner's hash tag (so one cluster slot, as every key of a log):
 *
 * ```
 * {tag}:word:<word>     set of the ids of the movies holding the word
 * {tag}:words           sorted set of the words held, at score 0 (a prefix is a lexical range)
 * {tag}:tallies         hash of the month counters, `YYYY-MM|kind|value` -> n
 * {tag}:links           sorted set of links scored by their screenings (2 and up: rewatched)
 * {tag}:seen:<link>     hash of a link's screenings, `YYYY-MM\ttitle` -> n
 * {tag}:counted         set of the ids whose terms are counted
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
  ].join('\n')
}

/** The Lua function the write scripts share: counts a movie's terms in (1) or out (-1). */
export const COUNT_TERMS = `local function count(prefix, id, terms, step)
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

/** KEYS: ids, counted. ARGV: how many. Ids of movies whose terms are not counted yet. */
export const UNCOUNTED = `local missing = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if redis.call('SISMEMBER', KEYS[2], id) == 0 then
    missing[#missing + 1] = id
    if #missing >= tonumber(ARGV[1]) then break end
  end
end
return missing`
