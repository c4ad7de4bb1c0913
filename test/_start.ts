import { configFromEnv } from '../src/server/config'
import { startFailureLine, startServer } from '../src/server/server'
import { freePort } from './_ports'

/**
 * The line `movie-log serve` prints when it refuses to start with `env`, from the start itself
 * in this process: a process per refusal cost a second each. What a refusing process does
 * (one line, exit 1, no hang) is tested once per kind of failure, in server.test.ts.
 */
export async function refusalOf(env: Record<string, string>): Promise<string> {
  let server: Awaited<ReturnType<typeof startServer>>
  try {
    const config = configFromEnv({ HOST: '127.0.0.1', PORT: String(await freePort()), ...env })
    server = await startServer(config, () => {})
  } catch (error) {
    return startFailureLine(error)
  }
  await server.close()
  throw new Error(`the server started with ${JSON.stringify(env)}`)
}
