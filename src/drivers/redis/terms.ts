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
 * {tag}:pending         set of the ids added since, their terms not counted yet
 * ```
 *
 * An add leaves its terms to the next search or count, as memory and SQLite do: its id joins
 * `pending`, and a read script answers nil until every id is counted, so the reader counts the
 * pending movies in (`COUNT_PENDING`, in batches) and reads again. An id is in at most one of
 * `pending` and `counted`, so the ids in neither are those an older movie-log wrote before
 * these keys: counted once, movie by movie (`COUNT_ONE`), while writers go on.
 */

import type { Movie } from '../../core/movie'
import { termsOf } from '../../core/tallies'

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
  if step > 0 then
    redis.call('SADD', prefix .. 'counted', id)
    redis.call('SREM', prefix .. 'pending', id)
  else redis.call('SREM', prefix .. 'counted', id) end
end
`

/**
 * KEYS: tallies, links, and (to check) ids, counted. ARGV: the tag prefix, the first month, the
 * last. Summed here over the months between: each month's total (its `w` counters), each
 * `kind|value` counter, and each link screened more than once in all, its screenings by title;
 * when checked, nil while some movie's terms are not counted yet.
 */
export const TALLIES = `if KEYS[4] and redis.call('ZCARD', KEYS[3]) ~= redis.call('SCARD', KEYS[4]) then return false end
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
 * KEYS: counted. ARGV: the tag prefix, then each movie's id, text ('' when gone) and terms.
 * Counts in each movie added without its terms, if it is still that text and not counted yet;
 * an id counted meanwhile (by another reader, or an edit) or gone leaves `pending`.
 */
export const COUNT_PENDING = `${COUNT_TERMS}
local prefix = ARGV[1]
for at = 2, #ARGV, 3 do
  local id = ARGV[at]
  local text = redis.call('GET', prefix .. 'movie:' .. id)
  if redis.call('SISMEMBER', KEYS[1], id) == 1 or not text then
    redis.call('SREM', prefix .. 'pending', id)
  elseif text == ARGV[at + 1] then
    count(prefix, id, ARGV[at + 2], 1)
  end
end
return 1`

/**
 * KEYS: ids, a set of ids (counted, or paged), pending. How many movies are in neither set:
 * those an older movie-log wrote before the set was kept.
 */
export const OLDER_UNCOUNTED = `return redis.call('ZCARD', KEYS[1]) - redis.call('SCARD', KEYS[2]) - redis.call('SCARD', KEYS[3])`

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
 * KEYS: ids, a set of ids (counted, or paged), pending. ARGV: how many. Ids of movies an older
 * movie-log wrote: in neither that set nor pending (their terms not counted, or their words not
 * in the ordered sets yet).
 */
export const UNCOUNTED = `local missing = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if redis.call('SISMEMBER', KEYS[2], id) == 0 and redis.call('SISMEMBER', KEYS[3], id) == 0 then
    missing[#missing + 1] = id
    if #missing >= tonumber(ARGV[1]) then break end
  end
end
return missing`
