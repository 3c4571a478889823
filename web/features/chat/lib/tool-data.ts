import type { z } from 'zod/mini'
import { emailDraft, mcpData, passageData, searchData, searchResult, sourcePassage as passage } from '../../../../src/api/chat/tool-data'
import { parseArguments, type ToolCallView } from './tool-parts'

// Stored replies outlive code changes, so every tool's data is checked against its schema: data
// that does not fit is ignored, never trusted.

export type SearchResult = z.infer<typeof searchResult>

/** internet_search's results that have an http(s) address; null when the data is not search results. */
export function searchResultsOf(data: unknown): SearchResult[] | null {
  const parsed = searchData.safeParse(data)
  if (!parsed.success) return null
  return parsed.data.results.flatMap((r) => {
    const result = searchResult.safeParse(r)
    return result.success && hostOf(result.data.url) ? [result.data] : []
  })
}

/** The host of an http(s) address without "www."; empty for anything else. */
export function hostOf(url: string): string {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname.replace(/^www\./, '') : ''
  } catch {
    return ''
  }
}

export type SourcePassage = z.infer<typeof passage>

/** source_query's passages (file name, pages, citation, text); empty when the data holds none. */
export function passagesOf(data: unknown): SourcePassage[] {
  const parsed = passageData.safeParse(data)
  if (!parsed.success) return []
  return parsed.data.passages.flatMap((p) => {
    const result = passage.safeParse(p)
    return result.success ? [result.data] : []
  })
}

/** The passages of every successful source_query call of a reply, in call order. */
export function replyPassages(calls: ToolCallView[]): SourcePassage[] {
  return calls.flatMap((c) => (c.name === 'source_query' && c.result && !c.result.isError ? passagesOf(c.result.data) : []))
}

export type EmailDraft = z.infer<typeof emailDraft>

/** The e-mail a send_email call drafted: the checked draft of its result, else what the model sent. */
export function emailDraftOf(call: ToolCallView): EmailDraft | null {
  const fromResult = emailDraft.safeParse(call.result?.data)
  if (fromResult.success) return fromResult.data
  const args = parseArguments(call.arguments)
  if (!args) return null
  const text = (v: unknown) => (typeof v === 'string' ? v : '')
  return { to: text(args.to), subject: text(args.subject), body: text(args.body) }
}

const SUMMARY_ARGUMENT: Record<string, string | undefined> = { internet_search: 'query', source_query: 'query', website_content: 'url', send_email: 'subject' }

/** The argument that says what a call is about (the query, the address, the subject), when there is one. */
export function callSummary(call: Pick<ToolCallView, 'name' | 'arguments'>): string | null {
  const args = parseArguments(call.arguments)
  if (!args) return null
  const key = SUMMARY_ARGUMENT[call.name]
  if (key) {
    const value = args[key]
    return typeof value === 'string' && value.trim() ? value.trim() : null
  }
  const first = Object.entries(args).find(([, v]) => typeof v === 'string' || typeof v === 'number')
  return first ? `${first[0]}: ${first[1]}` : null
}

export type McpResult = z.infer<typeof mcpData>

/** What an MCP tool returned for the chat (images, resources); null when the data is not an MCP tool's. */
export function mcpResultOf(data: unknown): McpResult | null {
  const parsed = mcpData.safeParse(data)
  if (!parsed.success) return null
  const images = parsed.data.images.filter((i) => /^image\/(png|jpeg|gif|webp)$/.test(i.mimeType))
  return { ...parsed.data, images }
}

/** An MCP tool's own name and its server's, from its result or, while it runs, from its chat name `<server>__<tool>`. */
export function mcpToolOf(call: Pick<ToolCallView, 'name' | 'result'>): { server: string; tool: string } | null {
  const data = mcpResultOf(call.result?.data)
  if (data) return { server: data.server, tool: data.tool }
  const at = call.name.indexOf('__')
  return at > 0 ? { server: call.name.slice(0, at), tool: call.name.slice(at + 2) } : null
}
