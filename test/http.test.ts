import { describe } from 'vitest'
import { httpContract } from './_http-suite'
import { HTTP_TARGETS } from './_http-targets'

describe.each(HTTP_TARGETS)('HTTP contract: %s', (name, createTarget) =>
  httpContract(name, createTarget),
)
