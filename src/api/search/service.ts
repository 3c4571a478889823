import type { AppDeps, SessionUser } from '../../lib/context'
import { MATCH_END, MATCH_START, matchExpression, snippetParts } from './fts-query'
import type { SearchResult } from './schema'

/**
 * How many of the caller's newest matching passages are ranked. BM25 is computed for every row it
 * orders; a word found in most messages would otherwise cost a score for each of them. Rarer words
 * (the usual search) have fewer matches than this and are ranked over all of them.
 */
const RANKED = 1000
/** Tokens of a passage shown around the match. */
const SNIPPET_TOKENS = 20
/** Each user's rows of the index lie in their own range of rowids (see the migration 0011). */
const OWNER_RANGE = 2 ** 32

/**
 * The caller's passages that match every word of the search, best first (BM25; a title weighs
 * twice a message), each with its chat and the passage around the match. Only the caller's own
 * chats in their organisation are searched: the index is read in the caller's rowid range only,
 * and each result's chat is checked again.
 */
export async function searchChats(deps: AppDeps, caller: SessionUser, search: { q: string; limit: number }): Promise<{ results: SearchResult[] }> {
  const match = matchExpression(search.q)
  if (!match) return { results: [] }
  const client = deps.db.$client
  const owner = await client.execute({ sql: 'SELECT n FROM chat_search_owners WHERE user_id = ?', args: [caller.id] })
  const n = owner.rows[0]?.n
  if (n === undefined || n === null) return { results: [] }
  const from = BigInt(Number(n)) * BigInt(OWNER_RANGE)

  const ranked = await client.execute({
    sql: `SELECT CAST(id AS TEXT) AS id FROM (
            SELECT rowid AS id, bm25(chat_search, 2.0, 1.0) AS score FROM chat_search
            WHERE chat_search MATCH ? AND rowid > ? AND rowid < ? ORDER BY rowid DESC LIMIT ${RANKED}
          ) ORDER BY score, id DESC LIMIT ?`,
    args: [match, from, from + BigInt(OWNER_RANGE), search.limit],
  })
  if (!ranked.rows.length) return { results: [] }
  // Rowids go beyond 2^53 for later owners: they travel as text.
  const ids = ranked.rows.map((r) => String(r.id))

  const found = await client.execute({
    sql: `SELECT CAST(f.rowid AS TEXT) AS id, snippet(chat_search, -1, ?, ?, '…', ${SNIPPET_TOKENS}) AS snippet,
            d.thread_id, d.message_id, t.title, t.last_message_at, m.role, m.created_at
          FROM chat_search f
          JOIN chat_search_docs d ON d.id = f.rowid
          JOIN threads t ON t.id = d.thread_id
          LEFT JOIN messages m ON m.id = d.message_id
          WHERE chat_search MATCH ? AND f.rowid IN (${ids.map(() => '?').join(',')})
            AND t.user_id = ? AND t.organization_id = ?`,
    args: [MATCH_START, MATCH_END, match, ...ids.map(BigInt), caller.id, caller.organizationId],
  })
  const byId = new Map(found.rows.map((r) => [String(r.id), r]))
  const results = ids.flatMap((id): SearchResult[] => {
    const r = byId.get(id)
    if (!r) return []
    const messageId = r.message_id === null ? null : String(r.message_id)
    return [{
      threadId: String(r.thread_id),
      title: r.title === null ? null : String(r.title),
      messageId,
      role: messageId === null ? null : (String(r.role) as 'user' | 'assistant'),
      at: new Date(Number(messageId === null ? r.last_message_at : r.created_at)).toISOString(),
      snippet: snippetParts(String(r.snippet ?? '')),
    }]
  })
  return { results }
}
