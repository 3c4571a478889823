import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { join } from 'node:path'
import { z } from 'zod'
import { freePort } from './ports'
import { until } from './wait-for'

const EVERYTHING = join(import.meta.dir, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js')

/**
 * `@modelcontextprotocol/server-everything` on 127.0.0.1, in its Streamable HTTP mode (`/mcp`) or
 * its older HTTP+SSE mode (`/sse`); resolves once it answers.
 */
export async function startEverythingServer(mode: 'streamableHttp' | 'sse') {
  const port = freePort()
  const proc = Bun.spawn(['node', EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdout: 'ignore', stderr: 'ignore' })
  const url = `http://127.0.0.1:${port}${mode === 'sse' ? '/sse' : '/mcp'}`
  await until(`server-everything (${mode}) on port ${port}`, async () => {
    const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) })
    await res.body?.cancel()
    return true
  })
  return {
    url,
    close: () => {
      proc.kill()
    },
  }
}

/**
 * A small MCP server with tools whose answers tests can rely on, and the misbehaving servers the
 * client must survive. `/mcp`: tools `lookup` (echoes its argument and the Authorization header),
 * `huge` (a text of 50,000 characters), `broken` (an `isError` result), `picture` (an image and a
 * resource link). `/garbage` answers HTML, `/hang` never answers, `/down` is a closed door (404).
 */
export function startTestMcpServer() {
  const seen: { authorization: string | null; path: string }[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname
      seen.push({ authorization: req.headers.get('authorization'), path })
      if (path === '/garbage') return new Response('<html>not an MCP server</html>', { headers: { 'content-type': 'text/html' } })
      if (path === '/hang') return new Promise<Response>((resolve) => req.signal.addEventListener('abort', () => resolve(new Response(null, { status: 499 }))))
      if (path !== '/mcp') return new Response('not found', { status: 404 })
      const authorization = req.headers.get('authorization')
      const mcp = new McpServer({ name: 'kontor-test', version: '1.0.0' })
      mcp.registerTool('lookup', { description: 'Looks up a word in the test dictionary.', inputSchema: { word: z.string() } }, async ({ word }) => ({
        content: [{ type: 'text', text: `Definition of ${word}: a test word. Authorization: ${authorization ?? 'none'}` }],
      }))
      mcp.registerTool('huge', { description: 'Returns a very long text.' }, async () => ({ content: [{ type: 'text', text: `${'x'.repeat(50_000)}END` }] }))
      mcp.registerTool('broken', { description: 'Always fails.' }, async () => ({ content: [{ type: 'text', text: 'the dictionary is closed' }], isError: true }))
      mcp.registerTool('picture', { description: 'Returns a picture.' }, async () => ({
        content: [
          { type: 'text', text: 'Here is a red dot.' },
          { type: 'image', mimeType: 'image/png', data: RED_DOT },
          { type: 'resource_link', uri: 'https://example.com/dot.png', name: 'dot.png', mimeType: 'image/png' },
        ],
      }))
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
      await mcp.connect(transport)
      return transport.handleRequest(req)
    },
  })
  const base = `http://127.0.0.1:${server.port}`
  return { base, url: `${base}/mcp`, seen, close: () => server.stop(true) }
}

/** A 1×1 red PNG. */
export const RED_DOT = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
