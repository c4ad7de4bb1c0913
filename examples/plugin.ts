/**
 * A movie-log plug-in that adds one of each: a store URL (`scratch://`), a media player's
 * webhook (`POST /movies/scrobble/mpv`) and another service's CSV export (`--format club`).
 *
 *   In an app:        registerPlugin(plugin), then createMovieLog('scratch://'), toWebHandler(...)
 *   With the command: npx tsx node_modules/.bin/movie-log serve --plugin ./examples/plugin.ts
 *                     movie-log import club.csv --plugin ./plugin.js   (a plug-in built to JS)
 */
import { definePlugin, type ImportFormat, type ScrobbleSource, type StoreOpener } from 'movie-log'
import { memory } from 'movie-log/memory'

/** `scratch://`: a diary in memory, for a demo; a real opener connects to its store here. */
const scratch: StoreOpener = {
  schemes: ['scratch'],
  remote: false,
  open: (_url, options) => memory().open(options),
}

/**
 * What an mpv user script posts when a file ends: `{ event: 'end-file', reason: 'eof', imdb,
 * title, year, finishedAt }` (`finishedAt` epoch ms). Anything but a file played to its end is
 * left alone.
 */
const mpv: ScrobbleSource = {
  name: 'mpv',
  label: 'mpv',
  read(payload, receivedAt) {
    if (typeof payload !== 'object' || payload === null || !('event' in payload)) {
      return { kind: 'malformed', detail: "This is not an mpv end-file hook: it has no 'event'." }
    }
    const hook = payload as Record<string, unknown>
    if (hook.event !== 'end-file' || hook.reason !== 'eof') return { kind: 'ignored' }
    if (typeof hook.imdb !== 'string' || !/^tt\d{7,10}$/.test(hook.imdb)) {
      return { kind: 'incomplete', issues: [{ path: 'imdb', message: 'is not an IMDb id' }] }
    }
    return {
      kind: 'watched',
      imdbId: hook.imdb,
      title: hook.title,
      releaseYear: hook.year,
      watchedAt: { instant: typeof hook.finishedAt === 'number' ? hook.finishedAt : receivedAt },
      notes: 'Scrobbled from mpv',
    }
  },
}

const CLUB_COLUMNS = ['Film', 'Year', 'IMDb', 'Seen']

/** A film club's list: `Film,Year,IMDb,Seen` (`Seen` a day, `IMDb` an id like tt0113277). */
const club: ImportFormat = {
  name: 'club',
  label: "a film club's list",
  needs: 'the columns Film, Year, IMDb and Seen',
  detects: (header) => CLUB_COLUMNS.every((column) => header.includes(column)),
  read(header, record) {
    const cell = (column: string) => (record[header.indexOf(column)] ?? '').trim()
    if (!/^\d{4}-\d{2}-\d{2}$/.test(cell('Seen'))) {
      return { issues: [{ path: 'Seen', message: 'must be a day, YYYY-MM-DD' }] }
    }
    return {
      movie: {
        title: cell('Film'),
        releaseYear: Number(cell('Year')),
        imdbLink: `https://www.imdb.com/title/${cell('IMDb')}/`,
        screenedDate: `${cell('Seen')}T20:00:00.000`,
      },
    }
  },
}

export default definePlugin({
  name: 'example',
  storeOpeners: [scratch],
  scrobbleSources: [mpv],
  importFormats: [club],
})
