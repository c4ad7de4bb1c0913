// #region snippet
import KeyvRedis, { createClient } from '@keyv/redis'
import { createMovieLog } from 'movie-log'

const client = createClient({
  url: 'redis://localhost:6379',
  disableOfflineQueue: true,
  socket: { connectTimeout: 2000, reconnectStrategy: (n) => Math.min(2 ** n * 100, 2000) },
})
const log = createMovieLog(new KeyvRedis(client))
// #endregion snippet
await log.close()
