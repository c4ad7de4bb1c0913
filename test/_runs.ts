import { UNDER_CI } from './_services'

/**
 * How many random cases a fast-check property tries: all `n` under CI=true; a quarter on every
 * local `npm test`, where the suite must stay quick. The same properties run either way.
 */
export const runs = (n: number): number => (UNDER_CI ? n : Math.max(25, Math.ceil(n / 4)))
