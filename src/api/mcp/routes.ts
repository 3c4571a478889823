import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppEnv } from '../../lib/context'
import { AppError } from '../../lib/errors'
import { hitRateLimit } from '../../lib/rate-limit'
import { apiKeyCaller } from '../api-keys/access'
import { auditFrom } from '../audit/access'
import { kontorMcpServer } from './server'

/** Requests above this are refused before they are read (questions are at most 32,000 characters). */
export const MCP_BODY_LIMIT = 1024 * 1024
const RATE_WINDOW_MS = 60_000

/** A refusal in JSON-RPC's shape, which MCP clients show: no request id, since none was read. */
function refuse(c: Context<AppEnv>, error: AppError) {
  if (error.status === 401) c.header('WWW-Authenticate', 'Bearer realm="kontor"')
  if (error.retryAfter) c.header('Retry-After', String(error.retryAfter))
  return c.json({ jsonrpc: '2.0', error: { code: -32001, message: error.message, data: { code: error.code } }, id: null }, error.status as ContentfulStatusCode)
}

/**
 * Kontor as an MCP server at /mcp (Streamable HTTP, stateless: each request is answered on its
 * own, so any process can take it): authenticated by the caller's API key like /v1, counted
 * against the same per-key rate limit, refused when the organisation switched API access off.
 */
export function createMcpApi() {
  const mcp = new Hono<AppEnv>()
  mcp.use(bodyLimit({ maxSize: MCP_BODY_LIMIT, onError: (c) => refuse(c as Context<AppEnv>, new AppError('PAYLOAD_TOO_LARGE')) }))
  // Stateless: there is no stream to open (GET) or session to end (DELETE), as the SDK's own
  // stateless servers answer. Nothing Kontor offers changes while a client is connected.
  mcp.on(['GET', 'DELETE', 'PUT', 'PATCH'], '/', (c) => {
    c.header('Allow', 'POST')
    return c.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: Kontor answers MCP requests sent with POST.' }, id: null }, 405)
  })
  mcp.post('/', async (c) => {
    const deps = c.get('deps')
    const authorization = c.req.header('authorization')
    const key = authorization?.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : undefined
    let caller
    let keyId
    try {
      const found = await apiKeyCaller(deps, key)
      const hit = await hitRateLimit(deps.db, `api-key:${found.keyId}`, { limit: deps.config.apiRateLimitPerMinute, windowMs: RATE_WINDOW_MS })
      if (!hit.allowed) throw new AppError('TOO_MANY_REQUESTS', { message: 'Rate limit reached for this API key. Please try again later.', retryAfter: hit.retryAfterSeconds })
      caller = found.user
      keyId = found.keyId
    } catch (error) {
      if (error instanceof AppError) return refuse(c, error)
      throw error
    }
    const { WebStandardStreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    const server = await kontorMcpServer(deps, caller, { logger: c.get('logger'), signal: c.req.raw.signal, from: auditFrom(c), keyId })
    await server.connect(transport)
    return transport.handleRequest(c.req.raw)
  })
  return mcp
}
