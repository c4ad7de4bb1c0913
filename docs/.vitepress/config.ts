/**
 * The movie-log manual: `npm run docs:build` (into docs/.vitepress/dist), `npm run docs:dev`.
 * The API reference page renders the OpenAPI document with Scalar, both served from this site:
 * the document is made from source and Scalar's browser bundle copied from node_modules at the
 * start of every build or dev server, into docs/public/ (ignored by git).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vitepress'
import { createOpenApiDocument } from '../../src/http/openapi/document'

const PUBLIC = fileURLToPath(new URL('../public/', import.meta.url))
const SCALAR_BUNDLE = fileURLToPath(
  new URL('../../node_modules/@scalar/api-reference/dist/browser/standalone.js', import.meta.url),
)
const REPOSITORY = 'https://github.com/movie-log/movie-log'

/** openapi.json (a handler at /movies, as the package ships it) and scalar/standalone.js. */
function apiReferenceFiles(): Plugin {
  return {
    name: 'movie-log:api-reference-files',
    buildStart() {
      mkdirSync(`${PUBLIC}scalar`, { recursive: true })
      writeFileSync(
        `${PUBLIC}openapi.json`,
        `${JSON.stringify(createOpenApiDocument('/movies'), null, 2)}\n`,
      )
      // The package exports no path to its browser bundle: it is read from where npm puts it.
      copyFileSync(SCALAR_BUNDLE, `${PUBLIC}scalar/standalone.js`)
    },
  }
}

export default defineConfig({
  title: 'movie-log',
  description: 'A diary of the movies you have screened: a TypeScript library and a server.',
  cleanUrls: true,
  lastUpdated: false,
  // Dead links fail the build (VitePress's default): keep it that way.
  ignoreDeadLinks: false,
  vite: { plugins: [apiReferenceFiles()] },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Reference', link: '/reference/api' },
      { text: 'Performance', link: '/performance' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'Getting started', link: '/guide/getting-started' },
          { text: 'Embed it', link: '/guide/embed' },
          { text: 'Stores', link: '/guide/stores' },
          { text: 'Runtimes', link: '/guide/runtimes' },
          { text: 'Serve it over HTTP', link: '/guide/http' },
          { text: 'Many diaries in one app', link: '/guide/many-diaries' },
          { text: 'Live changes', link: '/guide/live-changes' },
          { text: 'Webhooks', link: '/guide/webhooks' },
          { text: 'Scrobbles', link: '/guide/scrobbles' },
          { text: 'Plug-ins', link: '/guide/plugins' },
          { text: 'Leave Trakt', link: '/guide/trakt' },
          { text: 'The IMDb catalog', link: '/guide/catalog' },
          { text: 'Search and statistics', link: '/guide/search-and-stats' },
          { text: 'Ratings and tags', link: '/guide/ratings-and-tags' },
          { text: 'Share and follow', link: '/guide/share' },
          { text: 'The client', link: '/guide/client' },
          { text: 'The server', link: '/guide/server' },
          { text: 'The diary page', link: '/guide/page' },
          { text: 'The command', link: '/guide/command' },
          { text: 'Bring your diary', link: '/guide/bring-your-diary' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'API', link: '/reference/api' },
          { text: 'The HTTP contract', link: '/reference/http' },
          { text: 'OpenAPI reference', link: '/reference/openapi' },
          { text: 'Errors', link: '/reference/errors' },
          { text: 'The fields', link: '/reference/fields' },
          { text: 'Guarantees', link: '/reference/guarantees' },
          { text: 'Decisions', link: '/reference/decisions' },
          { text: 'Node.js versions', link: '/reference/node-versions' },
        ],
      },
      { text: 'Performance', link: '/performance' },
    ],
    socialLinks: [{ icon: 'github', link: REPOSITORY }],
    search: { provider: 'local' },
  },
})
