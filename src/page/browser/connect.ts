/**
 * The "Connect your media server" panel: the webhook address of each source (Plex, Jellyfin,
 * Emby, any other tool), with the tab's token in it, for the person to paste into their server.
 */

/** Writes each `[data-hook]` address: the log's `/scrobble/<source>`, `?token=` when one is held. */
export function showWebhooks(logUrl: string, token: string | null): void {
  for (const code of document.querySelectorAll<HTMLElement>('[data-hook]')) {
    const url = new URL(`${logUrl.replace(/\/$/, '')}/scrobble/${code.dataset.hook}`)
    if (token) url.searchParams.set('token', token)
    code.textContent = url.href
  }
}
