// A second process for the SQLite lock tests: opens the file it is given with the sqlite3
// package, takes the write lock (BEGIN IMMEDIATE), says `locked`, and holds it until a line
// comes on its standard input; then commits, says `released` and exits.
import { createInterface } from 'node:readline'
import sqlite3 from 'sqlite3'

const [file = ''] = process.argv.slice(2)
const db = new sqlite3.Database(file)
const run = (sql) =>
  new Promise((done, fail) => db.exec(sql, (error) => (error ? fail(error) : done())))
await run('PRAGMA busy_timeout = 5000')
await run('BEGIN IMMEDIATE')
console.log('locked')
const lines = createInterface({ input: process.stdin })
await new Promise((done) => lines.once('line', done))
await run('COMMIT')
console.log('released')
lines.close()
db.close()
