// Preloaded into a server process (node --import): on SIGUSR2 it collects garbage and prints
// `heap <n>: <bytes>` for the n-th signal: what is still held after a full GC, the JS heap
// plus the memory outside it (Buffers, ArrayBuffers). RSS cannot tell a leak of a few KB per
// request from the allocator keeping freed pages.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc')
let signals = 0
process.on('SIGUSR2', () => {
  signals++
  // Twice: what a finalizer or a weak reference let go of is collected on the second pass.
  gc()
  gc()
  const { heapUsed, external } = process.memoryUsage()
  console.log(`heap ${signals}: ${heapUsed + external}`)
})
