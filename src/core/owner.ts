import { InvalidOwnerError } from './errors'

/** Most characters (code points) an owner may have. */
export const MAX_OWNER_LENGTH = 256

/**
 * Checks an owner's name: a string of 1 to 256 characters, without U+0000 (PostgreSQL cannot
 * store it) or a lone surrogate (SQLite and PostgreSQL would keep it as U+FFFD, so two owners
 * could meet in one diary). Any other character is fine: drivers encode names themselves.
 */
export function checkOwner(owner: unknown): string {
  if (typeof owner !== 'string' || owner === '') {
    throw new InvalidOwnerError('The owner must be a non-empty string')
  }
  let length = 0
  for (const _ of owner) {
    if (++length > MAX_OWNER_LENGTH) {
      throw new InvalidOwnerError(`The owner must be at most ${MAX_OWNER_LENGTH} characters long`)
    }
  }
  if (owner.includes('\u0000') || !isWellFormed(owner)) {
    throw new InvalidOwnerError('The owner must not hold U+0000 or a lone surrogate')
  }
  return owner
}

// String.prototype.isWellFormed is Node 20+; written out for runtimes without it.
function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)
}
