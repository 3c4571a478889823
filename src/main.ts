/**
 * The Bun entry: the only place (with the adapters it wires) that touches the file system,
 * Bun.* or node:* APIs. Reads configuration once, then starts the server.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError, parseConfig } from './lib/config'
import { repliesFinished, stopRunningReplies } from './api/chat/running-replies'
import { startServer } from './server'

/** Outside production a secret is generated once and kept in the data directory. */
function developmentSecret(dataDir: string): string | undefined {
  if (process.env.KONTOR_SECRET || process.env.NODE_ENV === 'production') return undefined
  const file = join(dataDir, '.secret')
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(file, crypto.randomUUID() + crypto.randomUUID(), { mode: 0o600 })
  }
  return readFileSync(file, 'utf8').trim()
}

/** A failed start is reported in one line: a multi-line message (a failed query quotes its SQL) is cut. */
function fail(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error)
  const line = message.split('\n')[0]!.trim()
  console.error(error instanceof ConfigError ? line : `Kontor could not start: ${line}`)
  process.exit(1)
}

try {
  const config = parseConfig(process.env, developmentSecret(process.env.KONTOR_DATA_DIR || './data'))
  const running = await startServer(config)
  // Waiting for an unreachable libSQL server may end in a failure that is not an outage.
  running.ready.catch(fail)
  // Graceful shutdown: stop taking requests, give running replies a while to finish, then stop
  // the rest (they are kept as `stopped`) before closing the database.
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    running.deps.logger.info('shutting down')
    running.server.stop()
    if (!(await repliesFinished(20_000))) await stopRunningReplies()
    await running.stop()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} catch (error) {
  fail(error)
}
