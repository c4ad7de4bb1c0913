import { registerStoreOpener, UnsupportedStoreError } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { openCheckedLog, StoreOpenError } from '../src/server/store'

describe('a store the server or the command cannot open', () => {
  it('is a usage error when the URL is wrong', async () => {
    const error = await openCheckedLog('mongodb://host/db').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StoreOpenError)
    expect(error).toMatchObject({ badUrl: true, message: /unknown store URL/ })
  })

  it('is not a usage error when the store client package is missing', async () => {
    registerStoreOpener({
      schemes: ['test-missing-package'],
      remote: true,
      open: async () => {
        const missing = Object.assign(new Error("Cannot find package 'x'"), {
          code: 'ERR_MODULE_NOT_FOUND',
        })
        throw new UnsupportedStoreError('needs the x package', {
          cause: missing,
          missingPackage: 'x',
        })
      },
    })
    const error = await openCheckedLog('test-missing-package://').catch((e: unknown) => e)
    expect(error).toMatchObject({ badUrl: false, message: 'needs the x package' })
  })
})
