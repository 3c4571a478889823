import type { AppDeps } from '../../lib/context'
import { outboundFetch, serverPolicy } from '../../lib/outbound'

/** How many fused candidates go to the reranker, of which the best `k` are kept. */
export const RERANK_CANDIDATES = 20

type RerankAnswer = { results?: unknown; data?: unknown }
type Scored = { index?: unknown; relevance_score?: unknown; score?: unknown }

/**
 * Orders passages by the operator's rerank endpoint (KONTOR_RERANK_URL): Cohere's request
 * (`model`, `query`, `documents`, `top_n`) and answer (`results` of `index` and
 * `relevance_score`), which vLLM's, Jina's and Infinity's `/rerank` speak too (`data` and `score`
 * are read as well). Through the guarded outbound client, 10 s, 1 MB. Returns the indexes of the
 * documents best first, or null when no reranker is configured or it failed (the caller keeps its
 * own order; a failure is logged).
 */
export async function rerank(deps: Pick<AppDeps, 'config' | 'logger' | 'resolveHost'>, query: string, documents: string[], topN: number, signal?: AbortSignal): Promise<number[] | null> {
  const config = deps.config.rerank
  if (!config || documents.length < 2) return null
  try {
    const fetcher = outboundFetch(serverPolicy(deps, config.url), { timeoutMs: 10_000, maxBytes: 1024 * 1024 })
    const response = await fetcher(config.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(config.apiKey && { authorization: `Bearer ${config.apiKey}` }) },
      body: JSON.stringify({ ...(config.model && { model: config.model }), query, documents, top_n: Math.min(topN, documents.length) }),
      signal,
    })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    const answer = (await response.json()) as RerankAnswer
    const list = (Array.isArray(answer.results) ? answer.results : Array.isArray(answer.data) ? answer.data : null) as Scored[] | null
    if (!list) throw new Error('no results in the answer')
    const scored = list
      .map((r) => ({ index: Number(r.index), score: Number(r.relevance_score ?? r.score) }))
      .filter((r) => Number.isInteger(r.index) && r.index >= 0 && r.index < documents.length && Number.isFinite(r.score))
    if (!scored.length) throw new Error('no usable results in the answer')
    const seen = new Set<number>()
    return scored
      .sort((a, b) => b.score - a.score)
      .map((r) => r.index)
      .filter((i) => !seen.has(i) && seen.add(i))
  } catch (error) {
    if (signal?.aborted) throw error
    deps.logger.warn('rerank failed; passages keep their fused order', { error: String(error) })
    return null
  }
}
