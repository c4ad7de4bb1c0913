/** `movie-log catalog`: the IMDb catalog that matches titles to IMDb entries, offline. */
import { defineCommand } from 'citty'

export default defineCommand({
  meta: {
    name: 'catalog',
    description: "IMDb's titles, kept beside the diary to match titles and years with IMDb links.",
  },
  subCommands: { load: () => import('./catalog-load').then((command) => command.default) },
})
