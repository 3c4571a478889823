import { isPrivateHost } from '../../lib/network'
import { isIpLiteral, isPublicIp } from '../../lib/ip-address'
import { ToolError } from './types'

export const FETCH_LIMITS = { timeoutMs: 5_000, maxBytes: 2 * 1024 * 1024, maxRedirects: 5 }

export type SafeFetchOptions = {
  /** Defaults to the global fetch. */
  fetch?: typeof fetch
  /** Without a resolver (Workers), host names are judged by their name only. */
  resolveHost?: (hostname: string) => Promise<string[]>
  /** Host names (lower case) fetched even though they are internal: KONTOR_FETCH_ALLOWED_HOSTS. */
  allowedHosts?: string[]
  timeoutMs?: number
  maxBytes?: number
  maxRedirects?: number
  signal?: AbortSignal
}

export type FetchedPage = { url: string; contentType: string; bytes: Uint8Array; truncated: boolean }

const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** Names that only mean something inside a network; refused when they cannot be resolved and checked. */
const INTERNAL_SUFFIXES = ['.lan', '.home', '.corp', '.intranet', '.localdomain', '.home.arpa']
const TIMEOUT = Symbol('timeout')

/**
 * Fetches a URL from the public internet only: http(s) without credentials, never a private,
 * loopback, link-local or metadata address (checked again after DNS and after every redirect,
 * which are followed by hand, at most 5), within 5 s, reading at most 2 MB of the body.
 * Failures are ToolErrors whose message tells the model what happened.
 */
export async function fetchPublicUrl(input: string, options: SafeFetchOptions = {}): Promise<FetchedPage> {
  const { timeoutMs, maxBytes, maxRedirects } = { ...FETCH_LIMITS, ...definedOnly(options) }
  options.signal?.throwIfAborted()
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(TIMEOUT), timeoutMs)
  const onAbort = () => controller.abort(options.signal?.reason)
  options.signal?.addEventListener('abort', onAbort)
  try {
    let url = target(input)
    for (let redirects = 0; ; redirects++) {
      await checkHost(url.hostname, options)
      const response = await (options.fetch ?? fetch)(url.href, {
        redirect: 'manual',
        signal: controller.signal,
        headers: { 'user-agent': 'Kontor/1.0 (website_content tool)', accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/pdf;q=0.8,*/*;q=0.5' },
      })
      if (REDIRECTS.has(response.status)) {
        await response.body?.cancel().catch(() => {})
        const location = response.headers.get('location')
        if (!location) throw new ToolError(`The page answered with HTTP ${response.status} but did not say where to go.`)
        if (redirects >= maxRedirects) throw new ToolError(`The page redirected more than ${maxRedirects} times; the redirects were not followed further.`)
        url = target(new URL(location, url).href)
        continue
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => {})
        throw new ToolError(`The page answered with HTTP ${response.status}.`)
      }
      const { bytes, truncated } = await readCapped(response, maxBytes, controller.signal)
      return { url: url.href, contentType: response.headers.get('content-type') ?? '', bytes, truncated }
    }
  } catch (error) {
    if (controller.signal.reason === TIMEOUT) throw new ToolError(`The page did not answer within ${timeoutMs / 1000} seconds.`)
    if (options.signal?.aborted || error instanceof ToolError) throw error
    throw new ToolError('The page could not be fetched: the server could not be reached.')
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
  }
}

/** The URL if it may be fetched at all: http(s), no user name or password. */
function target(input: string): URL {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    throw new ToolError('This is not a valid URL. Give a full address such as https://example.com/page.')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ToolError('Only http and https addresses can be fetched.')
  if (url.username || url.password) throw new ToolError('Addresses with a user name or password cannot be fetched.')
  return url
}

const REFUSED = 'This address points to a private or internal network and cannot be fetched.'

/** Refuses hosts that are, or resolve to, non-public addresses, unless the operator allowed them by name. */
async function checkHost(hostname: string, options: SafeFetchOptions) {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '')
  if (options.allowedHosts?.includes(host)) return
  if (isPrivateHost(host)) throw new ToolError(REFUSED)
  if (isIpLiteral(host)) return // public: isPrivateHost judged it
  if (!options.resolveHost) {
    if (!host.includes('.') || INTERNAL_SUFFIXES.some((s) => host.endsWith(s))) throw new ToolError(REFUSED)
    return
  }
  let addresses: string[]
  try {
    addresses = await options.resolveHost(host)
  } catch {
    addresses = []
  }
  if (!addresses.length) throw new ToolError(`The host name ${host} could not be found.`)
  if (addresses.some((a) => !isPublicIp(a))) throw new ToolError(REFUSED)
}

/** Reads the body up to `maxBytes` and stops there (the rest is never downloaded). */
async function readCapped(response: Response, maxBytes: number, signal: AbortSignal) {
  const reader = response.body?.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  let truncated = false
  if (reader) {
    const aborted = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))
    aborted.catch(() => {})
    try {
      for (;;) {
        const { done, value } = await Promise.race([reader.read(), aborted])
        if (done) break
        const room = maxBytes - size
        chunks.push(value.byteLength > room ? value.subarray(0, room) : value)
        size += Math.min(value.byteLength, room)
        if (value.byteLength > room) {
          truncated = true
          break
        }
      }
    } finally {
      reader.cancel().catch(() => {})
    }
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const c of chunks) {
    bytes.set(c, offset)
    offset += c.byteLength
  }
  return { bytes, truncated }
}

const definedOnly = (o: SafeFetchOptions) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<typeof FETCH_LIMITS>
