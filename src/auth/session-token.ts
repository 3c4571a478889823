import type { DBAdapter, DBTransactionAdapter, Where } from 'better-auth'
import type { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { sha256Hex } from '../lib/sha256'

/**
 * What the sessions table keeps of a session token: its SHA-256, in hex. The token is 32 random
 * characters, so a fast hash without salt is enough, and a leaked table (a backup, a replica)
 * holds nothing a browser could present.
 */
export const hashSessionToken = (token: string): Promise<string> => sha256Hex(token)

type AdapterFactory = ReturnType<typeof drizzleAdapter>

/**
 * better-auth keeps session tokens as they are and has no option to hash them, so its database
 * adapter is wrapped: for the session model, a token written is hashed, a token looked for
 * (`eq` or `in`) is hashed, and rows found by token get the token they were asked for back, so
 * that better-auth signs and compares the real one. Rows listed by user (not done by Kontor)
 * carry the hash. docs/decisions/0038-secrets-at-rest.md.
 */
export function withHashedSessionTokens(factory: AdapterFactory): AdapterFactory {
  return (options) => {
    const adapter = factory(options)
    return { ...wrap(adapter), transaction: (callback) => adapter.transaction((trx) => callback(wrap(trx))) } as DBAdapter
  }
}

const isSession = (model: string) => model === 'session'

/** The where clauses with every token hashed, and which hash stands for which token. */
async function hashedWhere(where: Where[] = []) {
  const tokens = new Map<string, string>()
  const hash = async (token: string) => {
    const hashed = await hashSessionToken(token)
    tokens.set(hashed, token)
    return hashed
  }
  const clauses = await Promise.all(
    where.map(async (clause) => {
      if (clause.field !== 'token') return clause
      if (typeof clause.value === 'string') return { ...clause, value: await hash(clause.value) }
      if (Array.isArray(clause.value)) return { ...clause, value: await Promise.all((clause.value as string[]).map(hash)) }
      return clause
    }),
  )
  return { where: clauses, tokens }
}

/** A row found by token carries the token it was asked for, not its hash. */
function restored<T>(row: T, tokens: Map<string, string>): T {
  if (!row || typeof row !== 'object') return row
  const token = (row as { token?: unknown }).token
  return typeof token === 'string' && tokens.has(token) ? { ...row, token: tokens.get(token) } : row
}

async function hashedUpdate(update: Record<string, unknown>) {
  return typeof update.token === 'string' ? { ...update, token: await hashSessionToken(update.token) } : update
}

function wrap<A extends DBTransactionAdapter>(adapter: A): A {
  return {
    ...adapter,
    async create(input) {
      const token = (input.data as { token?: unknown }).token
      if (!isSession(input.model) || typeof token !== 'string') return adapter.create(input)
      const row = await adapter.create({ ...input, data: { ...input.data, token: await hashSessionToken(token) } })
      return row && { ...row, token }
    },
    async findOne(input) {
      if (!isSession(input.model)) return adapter.findOne(input)
      const { where, tokens } = await hashedWhere(input.where)
      return restored(await adapter.findOne({ ...input, where }), tokens)
    },
    async findMany(input) {
      if (!isSession(input.model)) return adapter.findMany(input)
      const { where, tokens } = await hashedWhere(input.where)
      return (await adapter.findMany({ ...input, where })).map((row) => restored(row, tokens))
    },
    async count(input) {
      if (!isSession(input.model)) return adapter.count(input)
      return adapter.count({ ...input, where: (await hashedWhere(input.where)).where })
    },
    async update(input) {
      if (!isSession(input.model)) return adapter.update(input)
      const { where, tokens } = await hashedWhere(input.where)
      return restored(await adapter.update({ ...input, where, update: await hashedUpdate(input.update) }), tokens)
    },
    async updateMany(input) {
      if (!isSession(input.model)) return adapter.updateMany(input)
      return adapter.updateMany({ ...input, where: (await hashedWhere(input.where)).where, update: await hashedUpdate(input.update) })
    },
    async delete(input) {
      if (!isSession(input.model)) return adapter.delete(input)
      return adapter.delete({ ...input, where: (await hashedWhere(input.where)).where })
    },
    async deleteMany(input) {
      if (!isSession(input.model)) return adapter.deleteMany(input)
      return adapter.deleteMany({ ...input, where: (await hashedWhere(input.where)).where })
    },
    async consumeOne(input) {
      if (!isSession(input.model)) return adapter.consumeOne(input)
      const { where, tokens } = await hashedWhere(input.where)
      return restored(await adapter.consumeOne({ ...input, where }), tokens)
    },
    async incrementOne(input) {
      if (!isSession(input.model)) return adapter.incrementOne(input)
      const { where, tokens } = await hashedWhere(input.where)
      return restored(await adapter.incrementOne({ ...input, where }), tokens)
    },
  } as A
}
