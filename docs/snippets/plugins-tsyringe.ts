declare class MpvPlugin {}

// #region snippet
import 'reflect-metadata' // the app's own: it asked for decorators
import { MOVIE_LOG_PLUGIN, registerPluginsFrom } from 'movie-log'
import { container } from 'tsyringe'

container.register(MOVIE_LOG_PLUGIN, { useClass: MpvPlugin })
registerPluginsFrom(container)
// #endregion snippet
