import Keyv from 'keyv'
import { expect, it } from 'vitest'
import { memoryRecords } from '../src/drivers/memory/records'
import { keyvLayout } from '../src/drivers/shared/keys'

it('deletes expired records from the Map now and then, keeping live ones', async () => {
  const map = new Map()
  const keyv = new Keyv({ store: map, serialize: undefined, deserialize: undefined })
  let now = 0
  const records = memoryRecords(keyv, map, '', keyvLayout(''), () => now)
  for (let n = 0; n < 999; n++) expect(await records.create(`old-${n}`, 'claim', 5)).toBe(true)
  expect(map.size).toBe(999)
  now = 10
  // The thousandth write sweeps: the 999 written at 0 expired at 5; this one lives on.
  await records.write('new', 'claim', 60_000)
  expect(map.size).toBe(1)
  expect(await records.read('new')).toBe('claim')
})
