import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

/**
 * Makes temp folders for one test file and removes them after its tests. Call it at the top
 * of the file; the function it returns makes a folder named `<prefix>XXXXXX`.
 */
export function tempFolders(): (prefix: string) => string {
  const made: string[] = []
  afterAll(() => {
    for (const folder of made) rmSync(folder, { recursive: true, force: true })
  })
  return (prefix) => {
    const folder = mkdtempSync(join(tmpdir(), prefix))
    made.push(folder)
    return folder
  }
}
