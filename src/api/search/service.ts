import type { AppDeps, SessionUser } from '../../lib/context'
import { indexAllWaiting } from './index-later'
import { MATCH_END, MATCH_START, matchExpressions, snippetParts, withBeginnings } from './fts-query'
import type { SearchResult } from './schema'

/**
 * How many of the caller's newest matching passages are ranked. BM25 is computed for every row it
 * orders; a word found in most messages would otherwise cost a score for each of them. Rarer words
 * (the usual search) have fewer matches than this and are ranked over all of them.
 */
const RANKED = 1000
/** Words of the index a word being typed stands for, at most (the commonest that begin with it). */
const BEGINNINGS = 16
/** Tokens of a passage shown around the match. */
const SNIPPET_TOKENS = 20
/** Each user's rows of the index lie in their own range of rowids (see the migration 0014). */
const OWNER_RANGE = 2 ** 32

/** How many more ranked rows are read than asked for: the replies being replaced while their chats' new replies stream. */
const REPLACED_SLACK = 4

/**
 * The caller's passages that match every word of the search, best first (BM25; a title weighs
 * twice a message), each with its chat and the passage around the match. Only the caller's own
 * chats in their organisation are searched: the index is read in the caller's rowid range only,
 * and each result's chat is checked again.
 */
export async function searchChats(deps: AppDeps, caller: SessionUser, search: { q: string; limit: number }): Promise<{ results: SearchResult[] }> {
  const expressions = matchExpressions(search.q)
  if (!expressions) return { results: [] }
  // Replies that ended and wait to be indexed (decision 0107) are indexed first: a search finds
  // every reply that has ended. If that fails (the database locked for long by another process),
  // the index is searched as it stands.
  await indexAllWaiting(deps).catch((error: unknown) => deps.logger.warn('could not index ended replies before a search', { error }))
  const client = deps.db.$client
  const owner = await client.execute({ sql: 'SELECT n FROM chat_search_owners WHERE user_id = ?', args: [caller.id] })
  const n = owner.rows[0]?.n
  if (n === undefined || n === null) return { results: [] }
  const from = BigInt(Number(n)) * BigInt(OWNER_RANGE)
  const range = [from, from + BigInt(OWNER_RANGE)]

  // Rowids go beyond 2^53 for later owners: they travel as text.
  const rank = async (match: string) => {
    const ranked = await client.execute({
      sql: `SELECT CAST(id AS TEXT) AS id FROM (
              SELECT rowid AS id, bm25(chat_search, 2.0, 1.0) AS score FROM chat_search
              WHERE chat_search MATCH ? AND rowid > ? AND rowid < ? ORDER BY rowid DESC LIMIT ${RANKED}
            ) ORDER BY score, id DESC LIMIT ?`,
      // A few more than asked for: a reply replaced by one still streaming is still there (left out below).
      args: [match, ...range, search.limit + REPLACED_SLACK],
    })
    return ranked.rows.map((r) => String(r.id))
  }
  // A word being typed is first taken whole (a common word needs no more); when that finds too
  // little, it stands for the commonest words of the index that begin with it. (FTS5's own
  // prefix query would gather every match of every such word in the whole index first.)
  let match = expressions.whole
  let ids = await rank(match)
  if (expressions.typing && ids.length < search.limit) {
    const beginning = expressions.typing
    const terms = await client.execute({
      sql: `SELECT term FROM chat_search_terms WHERE term >= ? AND term < ? ORDER BY doc DESC LIMIT ${BEGINNINGS}`,
      args: [beginning, `${beginning}\u{10FFFF}`],
    })
    if (terms.rows.length) ids = await rank((match = withBeginnings(expressions.others, terms.rows.map((r) => String(r.term)))))
  }
  if (!ids.length) return { results: [] }

  // Two reads of the 20 rows: their passages from the index alone (joined with the tables, the
  // planner would walk every match), then their chats, checked against the caller once more. A
  // reply replaced by one still streaming is in the index until that one ends: it is left out.
  const list = ids.map(() => '?').join(', ')
  const rowids = ids.map(BigInt)
  const [passages, rows] = await client.batch([
    {
      sql: `SELECT CAST(rowid AS TEXT) AS id, snippet(chat_search, -1, ?, ?, '…', ${SNIPPET_TOKENS}) AS snippet FROM chat_search WHERE chat_search MATCH ? AND rowid IN (${list})`,
      args: [MATCH_START, MATCH_END, match, ...rowids],
    },
    {
      sql: `SELECT CAST(d.id AS TEXT) AS id, d.thread_id, d.message_id, t.title, t.last_message_at, m.role, m.created_at
            FROM chat_search_docs d JOIN threads t ON t.id = d.thread_id LEFT JOIN messages m ON m.id = d.message_id
            WHERE d.id IN (${list}) AND t.user_id = ? AND t.organization_id = ? AND (d.message_id IS NULL OR m.on_branch = 1)`,
      args: [...rowids, caller.id, caller.organizationId],
    },
  ], 'read')
  const snippets = new Map(passages!.rows.map((r) => [String(r.id), String(r.snippet ?? '')]))
  const byId = new Map(rows!.rows.map((r) => [String(r.id), r]))
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
      snippet: snippetParts(snippets.get(id) ?? ''),
    }]
  })
  return { results: results.slice(0, search.limit) }
}
