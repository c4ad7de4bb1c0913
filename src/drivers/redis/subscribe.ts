/**
 * @module The Redis driver's one SUBSCRIBE connection per store, which wakes the watchers of an
 * owner's log when any process PUBLISHes that it changed.
 */

import type { WakeHub, WakeSource } from '../shared/watchers'
import type { RedisClient, RedisConnection } from './connect'

/**
 * The wake source of a Redis store: a connection of its own (node-redis `duplicate()`, the
 * client's settings) SUBSCRIBEd to the namespace's changed channel, whose messages are owners.
 * node-redis subscribes again when it reconnects, before it says it is ready; each time it is
 * ready everyone is woken (pub/sub is at most once: what was sent meanwhile is in the history).
 */
export function subscribeToChanges(
  connection: RedisConnection,
  channel: string,
  hub: WakeHub,
): WakeSource {
  let subscriber: RedisClient | undefined
  let subscribed = false
  let listening = false
  let closed = false
  const listen = () => {
    if (closed || !subscriber || listening) return
    listening = true
    subscriber
      .subscribe(channel, (owner) => hub.wake(owner))
      .then(() => {
        subscribed = true
        hub.wakeAll()
      })
      // Lost before it subscribed: the next ready subscribes.
      .catch(() => {
        listening = false
      })
  }
  // A connection of its own, like the driver's (one Redis, or the cluster, whose pub/sub is
  // heard on every node), opened once the driver's connection is there.
  connection
    .client()
    .then((client) => {
      if (closed) return
      subscriber = client.duplicate()
      // Unheard, an error event (Redis away) would end the process; it reconnects by itself.
      subscriber.on('error', () => {})
      // Back after a drop: node-redis subscribes again by itself; the watchers read what they
      // missed meanwhile.
      subscriber.on('ready', () => (subscribed ? hub.wakeAll() : listen()))
      return subscriber.connect().then(listen)
    })
    .catch(() => {})
  return {
    close: async () => {
      if (closed) return
      closed = true
      // Never waits on a Redis that may be gone (nor throws for a client already gone).
      try {
        subscriber?.destroy()
      } catch {}
    },
  }
}
