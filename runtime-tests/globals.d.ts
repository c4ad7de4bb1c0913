// The little of Bun's and Deno's globals that runtime-tests/ and examples/ use, for tsc (their
// own type packages are not dependencies of this repository).
declare const Bun: {
  serve(options: {
    hostname?: string
    port?: number
    fetch(request: Request): Response | Promise<Response>
  }): { url: URL; stop(): void }
}

declare const Deno: {
  env: { get(name: string): string | undefined }
  serve(
    options: {
      hostname?: string
      port?: number
      onListen?(address: { hostname: string; port: number }): void
    },
    handler: (request: Request) => Response | Promise<Response>,
  ): { finished: Promise<void> }
}
