import type { Client } from '@libsql/client'

/**
 * Telling "the database cannot be reached" apart from other failures, so that an outage answers
 * 503 with a clear message (and the start waits for the database) instead of a 500.
 */

export const DATABASE_UNREACHABLE = 'The database cannot be reached.'

/** libSQL client codes for a connection that failed, was lost or was closed. */
const UNREACHABLE_CODES = new Set(['CLIENT_CLOSED', 'HRANA_WEBSOCKET_ERROR', 'HRANA_CLOSED_ERROR', 'STREAM_EXPIRED'])
/** Network error codes of Bun, Node and undici. */
const NETWORK_CODES = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|ConnectionRefused|ConnectionClosed|FailedToOpenSocket|UND_ERR_\w+)$/
/** Messages of a failed fetch (undici, Bun, workerd). */
const NETWORK_MESSAGES = /fetch failed|Unable to connect|Network connection lost|socket connection was closed|connection refused/i

function causes(error: unknown): unknown[] {
  const chain: unknown[] = []
  for (let e = error; e && chain.length < 8 && !chain.includes(e); e = (e as { cause?: unknown }).cause) chain.push(e)
  return chain
}

/** True when the error (or one of its causes) says the database did not answer. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return causes(error).some((e) => {
    if (!(e instanceof Error)) return false
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || NETWORK_CODES.test(code))) return true
    // An HTTP error from the libSQL server itself or a proxy in front of it (502, 503, 504); a
    // refused token (401) is a configuration error, not an outage.
    if (e.name === 'HttpServerError') return ((e as { status?: number }).status ?? 500) >= 500
    return e.name === 'TypeError' && NETWORK_MESSAGES.test(e.message)
  })
}

/**
 * True when a database file was locked by another process's write (SQLite's busy error: libSQL
 * opens files without a busy timeout, and one would stall this process's event loop while it
 * waits, as the local driver is synchronous). Worth trying again shortly.
 */
export function isDatabaseBusy(error: unknown): boolean {
  return causes(error).some((e) => /^SQLITE_BUSY/.test(String((e as { code?: unknown }).code ?? '')) || /SQLITE_BUSY/.test(String((e as { message?: unknown }).message ?? '')))
}

/** True when a write broke a constraint (a unique index, a foreign key, NOT NULL, a CHECK): that write is at fault, not the database. */
export function isConstraintViolation(error: unknown): boolean {
  return causes(error).some((e) => /^SQLITE_CONSTRAINT/.test(String((e as { code?: unknown }).code ?? '')) || /SQLITE_CONSTRAINT|UNIQUE constraint|FOREIGN KEY constraint/.test(String((e as { message?: unknown }).message ?? '')))
}

/** Pauses before each new attempt of a call that met a busy file: about 2.5 s in all. */
const BUSY_PAUSES_MS = [2, 5, 10, 20, 40, 80, 150, 250, 250, 250, 250, 250, 250, 250, 250, 250]

/**
 * Runs `call`, and again after a short pause while it fails on a file another process is writing
 * (about 2.5 s in all). Only for a call that either runs whole or not at all.
 */
export async function whenNotBusy<R>(call: () => Promise<R>): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call()
    } catch (error) {
      const pause = BUSY_PAUSES_MS[attempt]
      if (pause === undefined || !isDatabaseBusy(error)) throw error
      await new Promise((resolve) => setTimeout(resolve, pause))
    }
  }
}

/**
 * The client, with each statement, batch and transaction start that meets another process's write
 * lock tried again after a short pause instead of failing the request. Each of these either ran
 * whole or not at all when the busy error came (a batch is one transaction, rolled back on the
 * error; a transaction fails at its BEGIN), so trying again cannot apply anything twice. A busy
 * error inside an interactive transaction is not retried here: it fails that transaction.
 */
export function retryingWhenBusy(client: Client): Client {
  const retried =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      whenNotBusy(() => call(...args))
  const calls: Partial<Client> = {
    execute: retried(client.execute.bind(client)) as Client['execute'],
    batch: retried(client.batch.bind(client)),
    transaction: retried(client.transaction.bind(client)) as Client['transaction'],
    executeMultiple: retried(client.executeMultiple.bind(client)),
  }
  return new Proxy(client, {
    get(target, key) {
      if (Object.hasOwn(calls, key)) return calls[key as keyof Client]
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/**
 * One line for a failed database call: the innermost message of the libSQL client, without the
 * SQL text the query wrapper puts in front of it.
 */
export function describeDatabaseError(error: unknown): string {
  const chain = causes(error).filter((e): e is Error => e instanceof Error)
  const inner = chain.findLast((e) => !/^Failed query:/.test(e.message)) ?? chain.at(-1)
  const text = inner ? inner.message : String(error)
  return text.split('\n')[0]!.trim()
}
