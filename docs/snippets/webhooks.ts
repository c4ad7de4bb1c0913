import { createMovieLog, createMovieLogs, startWebhookDelivery, webhooksOf } from 'movie-log'

const log = createMovieLog('sqlite://./data/movies.sqlite')
const logs = createMovieLogs('postgres://app@db/app')

// #region snippet
// One diary's endpoints: the secret is answered this once.
const { id, secret } = await webhooksOf(log).add({
  url: 'https://n8n.example/webhook/movies',
  events: ['movie.added', 'movie.updated'],
})
console.log(await webhooksOf(log).list()) // [{ id, url, events, createdAt, status: 'active', lastError: null, … }]

// A household: each owner's own, out of every other owner's reach.
await webhooksOf(logs, 'alice').add({ url: 'https://alice.example/hooks' })

// Deliveries run where you start them: in each process of your app, one per store.
const delivery = startWebhookDelivery(logs)
process.on('SIGTERM', async () => {
  await delivery.stop() // waits for deliveries in flight (2 s at most), lets its leases go
  await logs.close()
})
// #endregion snippet
console.log(id, secret)
