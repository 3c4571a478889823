/**
 * What the Bun starts (`src/start.ts`, which `src/main.ts` loads, and `src/cli/demo.ts`) share: the generated development
 * secret, the one-line failure and the graceful stop on SIGINT/SIGTERM.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError } from './lib/config'
import { repliesFinished, stopRunningReplies } from './api/chat/running-replies'
import type { startServer } from './server'

/** Outside production a secret is generated once and kept in the data directory. */
export function developmentSecret(dataDir: string, env: Record<string, string | undefined> = process.env): string | undefined {
  if (env.KONTOR_SECRET || env.NODE_ENV === 'production') return undefined
  const file = join(dataDir, '.secret')
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(file, crypto.randomUUID() + crypto.randomUUID(), { mode: 0o600 })
  }
  return readFileSync(file, 'utf8').trim()
}

/** A failed start is reported in one line: a multi-line message (a failed query quotes its SQL) is cut. */
export function fail(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error)
  const line = message.split('\n')[0]!.trim()
  console.error(error instanceof ConfigError ? line : `Kontor could not start: ${line}`)
  process.exit(1)
}

/**
 * Graceful shutdown: stop taking requests, give running replies a while to finish, then stop
 * the rest (they are kept as `stopped`) before closing the database. `also` stops what the
 * entry started beside Kontor.
 */
export function stopOnSignals(running: Awaited<ReturnType<typeof startServer>>, also?: () => void) {
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    running.deps.logger.info('shutting down')
    running.server.stop()
    if (!(await repliesFinished(20_000))) await stopRunningReplies()
    await running.stop()
    also?.()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
