import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { OutboundError, outboundFetch, type OutboundPolicy } from '../lib/outbound'

/**
 * Kontor as a client of remote MCP servers (Streamable HTTP, with the older HTTP+SSE transport
 * as fallback). Every exchange opens its own connection through the guarded outbound client
 * (src/lib/outbound.ts: public addresses only unless the operator allows the host, redirects
 * checked) and closes it again; one deadline covers connecting and the call.
 */

/** Where a server is and what to send it (the headers hold its token, decrypted for this exchange). */
export type McpServerAddress = { url: string; headers: Record<string, string> }

export type McpToolInfo = { name: string; description: string; inputSchema: Record<string, unknown> }

export const MCP_LIMITS = {
  /** Connecting, listing or calling, all told. */
  timeoutMs: 30_000,
  /** Bytes of any one answer of the server; a larger one fails the exchange. */
  maxBytes: 5 * 1024 * 1024,
  /** Tools listed from one server (pages followed up to this many). */
  maxTools: 500,
}

export type McpFailure = 'refused' | 'unreachable' | 'timeout' | 'too-large' | 'bad-answer'

/** Why an exchange with a server failed; its message is written for the model and the admin. */
export class McpError extends Error {
  override readonly name = 'McpError'
  constructor(
    readonly reason: McpFailure,
    message: string,
  ) {
    super(message)
  }
}

type Sdk = {
  Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client
  StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport
  SSEClientTransport: typeof import('@modelcontextprotocol/sdk/client/sse.js').SSEClientTransport
}

// The SDK loads with the first exchange (decision 0045): most processes never talk to an MCP server.
let sdk: Promise<Sdk> | undefined
const loadSdk = () =>
  (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
  ]).then(([client, http, sse]) => ({ Client: client.Client, StreamableHTTPClientTransport: http.StreamableHTTPClientTransport, SSEClientTransport: sse.SSEClientTransport })))

/** Runs `use` on a fresh connection to the server and closes it, whatever happens. */
async function withClient<T>(server: McpServerAddress, policy: OutboundPolicy, signal: AbortSignal | undefined, use: (client: Client, signal: AbortSignal) => Promise<T>): Promise<T> {
  const { Client, StreamableHTTPClientTransport, SSEClientTransport } = await loadSdk()
  const deadline = AbortSignal.timeout(MCP_LIMITS.timeoutMs)
  const all = signal ? AbortSignal.any([signal, deadline]) : deadline
  const fetch = outboundFetch(policy, { maxBytes: MCP_LIMITS.maxBytes })
  const requestInit = { headers: server.headers, signal: all }
  const url = new URL(server.url)
  const options = { signal: all, timeout: MCP_LIMITS.timeoutMs, maxTotalTimeout: MCP_LIMITS.timeoutMs }
  let client = new Client({ name: 'kontor', version: '1.0.0' })
  try {
    try {
      await client.connect(new StreamableHTTPClientTransport(url, { fetch, requestInit }), options)
    } catch (error) {
      // Servers of the older HTTP+SSE transport refuse the POST; anything refused or timed out is final.
      if (all.aborted || findOutboundError(error)) throw error
      await client.close().catch(() => {})
      client = new Client({ name: 'kontor', version: '1.0.0' })
      await client.connect(new SSEClientTransport(url, { fetch, requestInit }), options)
    }
    return await use(client, all)
  } catch (error) {
    if (signal?.aborted) throw error
    throw asMcpError(error, deadline.aborted)
  } finally {
    await client.close().catch(() => {})
  }
}

/** The tools a server offers, as its listing says (pages followed). */
export async function listMcpTools(server: McpServerAddress, policy: OutboundPolicy, signal?: AbortSignal): Promise<McpToolInfo[]> {
  return withClient(server, policy, signal, async (client, all) => {
    const tools: McpToolInfo[] = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { signal: all, timeout: MCP_LIMITS.timeoutMs })
      for (const t of page.tools) tools.push({ name: t.name, description: t.description ?? t.title ?? '', inputSchema: t.inputSchema as Record<string, unknown> })
      cursor = page.nextCursor
    } while (cursor && tools.length < MCP_LIMITS.maxTools)
    return tools.slice(0, MCP_LIMITS.maxTools)
  })
}

/** Calls one tool of a server; the answer as the server gave it (an `isError` answer included). */
export async function callMcpTool(server: McpServerAddress, policy: OutboundPolicy, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
  return withClient(server, policy, signal, async (client, all) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { signal: all, timeout: MCP_LIMITS.timeoutMs })
    if (!Array.isArray(result.content)) throw new McpError('bad-answer', 'The MCP server sent an answer that is not a tool result.')
    return result as CallToolResult
  })
}

function findOutboundError(error: unknown): OutboundError | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) if (e instanceof OutboundError) return e
  // The SDK sometimes wraps the failure in its own message only.
  return undefined
}

function asMcpError(error: unknown, timedOut: boolean): McpError {
  if (error instanceof McpError) return error
  const outbound = findOutboundError(error)
  if (outbound?.reason === 'timeout' || timedOut || (error as { code?: unknown }).code === -32001)
    return new McpError('timeout', `The MCP server did not answer within ${MCP_LIMITS.timeoutMs / 1000} seconds.`)
  if (outbound?.reason === 'too-large') return new McpError('too-large', `The MCP server's answer is larger than ${MCP_LIMITS.maxBytes / 1024 / 1024} MB.`)
  if (outbound?.reason === 'host-not-found') return new McpError('unreachable', `The MCP server's host name ${outbound.host ?? ''} could not be found.`)
  if (outbound) return new McpError('refused', "The MCP server's address points into a private network, which this server does not reach.")
  const message = String((error as Error)?.message ?? error)
  if (/fetch failed|ECONNREFUSED|Unable to connect|ConnectionRefused|connect/i.test(message) && !/json|parse|schema/i.test(message))
    return new McpError('unreachable', 'The MCP server could not be reached.')
  return new McpError('bad-answer', 'The MCP server did not answer as an MCP server should.')
}

/** What the chat shows of a tool result beside its text: images and the resources it names. */
export type McpResultData = {
  server: string
  tool: string
  images: { mimeType: string; data: string }[]
  resources: { uri: string; name?: string; mimeType?: string }[]
}

/** Images larger than this (base64 characters) are not kept for the chat; at most MAX_IMAGES are. */
const MAX_IMAGE_CHARS = 700_000
const MAX_IMAGES = 4

/**
 * A tool result as the model reads it (text, with images and binary resources named, not sent)
 * and the data the chat shows (images, resource links).
 */
export function readMcpResult(result: CallToolResult, names: { server: string; tool: string }): { content: string; data: McpResultData } {
  const text: string[] = []
  const data: McpResultData = { ...names, images: [], resources: [] }
  for (const item of result.content) {
    if (item.type === 'text') text.push(item.text)
    else if (item.type === 'image') {
      const kept = data.images.length < MAX_IMAGES && item.data.length <= MAX_IMAGE_CHARS && /^image\/(png|jpeg|gif|webp)$/.test(item.mimeType)
      if (kept) data.images.push({ mimeType: item.mimeType, data: item.data })
      text.push(`[Image (${item.mimeType})${kept ? ', shown to the user' : ''}]`)
    } else if (item.type === 'audio') text.push(`[Audio (${item.mimeType}), not shown]`)
    else if (item.type === 'resource_link') {
      data.resources.push({ uri: item.uri, name: item.name, mimeType: item.mimeType })
      text.push(`[Resource: ${item.name} ${item.uri}]`)
    } else if (item.type === 'resource') {
      const r = item.resource
      data.resources.push({ uri: r.uri, mimeType: r.mimeType })
      text.push('text' in r && typeof r.text === 'string' ? `Resource ${r.uri}:\n${r.text}` : `[Resource ${r.uri} (${r.mimeType ?? 'binary'}), not shown]`)
    }
  }
  if (!text.length && result.structuredContent) text.push(JSON.stringify(result.structuredContent))
  return { content: text.join('\n\n') || '(The tool returned no content.)', data }
}
