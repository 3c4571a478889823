import { inAllowedRange, listsRanges } from './allowed-hosts'
import type { HostResolver } from './kept-lookups'
import { isInternalName, isIpLiteral, isPublicAddress, normalHost } from './public-address'

export { isInternalName, isPublicAddress }

/**
 * The one way the server sends requests out: the website_content tool, organisation endpoints
 * (model list, chat, embeddings), the platform providers, search backends and billing webhooks.
 *
 * For every request and every redirect hop it looks the host name up once (the Bun server's
 * resolver keeps a name's addresses for 30 s: src/lib/kept-lookups.ts), refuses it when any
 * address is not public (loopback, private, link-local, CGNAT, multicast, unspecified, reserved,
 * and the IPv4-mapped, NAT64 and 6to4 forms of them) unless the operator allowed the host, and
 * connects to the address it checked (no second lookup: DNS rebinding cannot swap it). Redirects
 * are followed by hand (at most 5); a redirect to another origin drops every header but the
 * harmless ones and is refused for requests with a body, so keys never reach another host.
 *
 * Without a resolver (Workers, whose fetch cannot reach private networks anyway) host names are
 * judged by name only.
 */
export type OutboundPolicy = {
  /** Every address a name resolves to (node:dns on Bun, its answers kept a while: src/lib/kept-lookups.ts). */
  resolveHost?: HostResolver
  /** Host names, IP addresses and CIDR ranges (lower case) reached even though they are internal (src/lib/allowed-hosts.ts). */
  allowedHosts?: readonly string[]
  /** The runtime's fetch; tests replace it. */
  transport?: typeof fetch
}

export type OutboundLimits = {
  /** The whole exchange, body included. */
  timeoutMs?: number
  /** Bytes of the answer's body; more fails the body's read with OutboundError 'too-large'. */
  maxBytes?: number
  maxRedirects?: number
}

export type OutboundRefusal =
  | 'invalid-url'
  | 'protocol'
  | 'credentials'
  | 'private-address'
  | 'host-not-found'
  | 'too-many-redirects'
  | 'redirect-without-location'
  | 'redirect-with-body'
  | 'timeout'
  | 'too-large'

export class OutboundError extends Error {
  override readonly name = 'OutboundError'
  constructor(
    readonly reason: OutboundRefusal,
    readonly host?: string,
  ) {
    super(`Outbound request refused: ${reason}${host ? ` (${host})` : ''}`)
  }
}

export const MAX_REDIRECTS = 5
const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** Headers that may follow a redirect to another origin: nothing that identifies or authorises. */
const CROSS_ORIGIN_HEADERS = ['accept', 'accept-language', 'user-agent', 'content-type']

/** A fetch that only reaches what the policy allows, within the limits. */
export function outboundFetch(policy: OutboundPolicy, limits: OutboundLimits = {}): typeof fetch {
  const guarded = (input: string | URL | Request, init?: RequestInit) => send(policy, limits, input, init)
  return Object.assign(guarded, { preconnect: fetch.preconnect }) as typeof fetch
}

/** Throws OutboundError when the URL may not be reached (bad form, or a host that is or resolves to a non-public address). */
export async function checkOutboundUrl(policy: OutboundPolicy, input: string): Promise<void> {
  await addressFor(policy, target(input))
}

/**
 * This server's policy for one caller: its resolver, the operator's allowed hosts
 * (KONTOR_FETCH_ALLOWED_HOSTS) and the hosts of the URLs the operator configured for this very
 * caller (a provider's base URL, the search backend, the billing webhook).
 */
export function serverPolicy(
  deps: { resolveHost?: OutboundPolicy['resolveHost']; config: { fetchAllowedHosts: readonly string[] } },
  ...operatorUrls: (string | undefined)[]
): OutboundPolicy {
  return { resolveHost: deps.resolveHost, allowedHosts: [...deps.config.fetchAllowedHosts, ...operatorUrls.flatMap(hostOf)] }
}

/** The host of a URL the operator configured, for that caller's own allow list. */
export const hostOf = (url: string | undefined) => {
  if (!url) return []
  try {
    return [normalHost(new URL(url).hostname)]
  } catch {
    return []
  }
}

async function send(policy: OutboundPolicy, limits: OutboundLimits, input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const request = input instanceof Request ? input : undefined
  let url = target(request ? request.url : String(input))
  let method = (init.method ?? request?.method ?? 'GET').toUpperCase()
  let headers = new Headers(init.headers ?? request?.headers)
  let body: BodyInit | null | undefined = init.body ?? (request && method !== 'GET' && method !== 'HEAD' ? await request.arrayBuffer() : undefined)
  const maxRedirects = limits.maxRedirects ?? MAX_REDIRECTS

  const callerSignal = init.signal ?? request?.signal
  const signals = [callerSignal, limits.timeoutMs ? AbortSignal.timeout(limits.timeoutMs) : undefined].filter((s): s is AbortSignal => !!s)
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0]
  const timedOut = () => signal?.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError' && !init.signal?.aborted
  try {
    for (let redirects = 0; ; redirects++) {
      // Known without a lookup (an address, or a name whose addresses the resolver keeps), the
      // request leaves within this call, before whatever the caller does next (decision 0120).
      const checked = addressFor(policy, url)
      const address = checked instanceof Promise ? await checked : checked
      const response = await connect(policy.transport ?? fetch, url, address, { method, headers, body, signal, redirect: 'manual' }).catch((error: unknown) => {
        // None of the name's addresses answered (in time): it may have moved, so the resolver
        // forgets what it kept. Not when the caller gave up.
        if (address && !callerSignal?.aborted) policy.resolveHost?.forget?.(normalHost(url.hostname))
        throw error
      })
      if (!REDIRECTS.has(response.status) || (init.redirect ?? request?.redirect) === 'manual') {
        // The URL asked for, after redirects: not the address it was sent to.
        const host = url.hostname
        const guarded = limits.maxBytes === undefined && !limits.timeoutMs ? response : guardBody(response, limits.maxBytes, () => (timedOut() ? new OutboundError('timeout', host) : undefined))
        return Object.defineProperty(guarded, 'url', { value: url.href })
      }
      await response.body?.cancel().catch(() => {})
      const location = response.headers.get('location')
      if (!location) throw new OutboundError('redirect-without-location', url.hostname)
      if (redirects >= maxRedirects) throw new OutboundError('too-many-redirects', url.hostname)
      const next = target(new URL(location, url).href)
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET'
        body = undefined
        headers.delete('content-type')
      }
      if (next.origin !== url.origin) {
        if (body != null) throw new OutboundError('redirect-with-body', next.hostname)
        const kept = new Headers()
        for (const name of CROSS_ORIGIN_HEADERS) if (headers.has(name)) kept.set(name, headers.get(name)!)
        headers = kept
      }
      url = next
    }
  } catch (error) {
    if (timedOut()) throw new OutboundError('timeout', url.hostname)
    throw error
  }
}

/**
 * Sends one request to the checked address. A name is replaced by the address in the URL, with
 * the name kept in the Host header and as the TLS server name (the certificate is checked
 * against it). Several addresses are tried in order while the connection cannot be made.
 */
async function connect(transport: typeof fetch, url: URL, addresses: string[] | undefined, init: RequestInit): Promise<Response> {
  if (!addresses) return transport(url.href, init)
  const replayable = !(init.body instanceof ReadableStream)
  for (let i = 0; ; i++) {
    const address = addresses[i]!
    const pinned = new URL(url.href)
    pinned.hostname = address.includes(':') ? `[${address}]` : address
    const headers = new Headers(init.headers)
    headers.set('host', url.host)
    try {
      return await transport(pinned.href, { ...init, headers, ...(url.protocol === 'https:' && { tls: { serverName: url.hostname } }) })
    } catch (error) {
      if (i + 1 >= addresses.length || !replayable || init.signal?.aborted) throw error
    }
  }
}

/**
 * The addresses to connect to: undefined when the URL is used as it is (an IP literal, or no
 * resolver); throws when the host may not be reached. A promise only while a name is looked up:
 * what the resolver already knows (`known`) is checked at once.
 */
function addressFor(policy: OutboundPolicy, url: URL): string[] | undefined | Promise<string[]> {
  const host = normalHost(url.hostname)
  const list = policy.allowedHosts ?? []
  const allowed = list.includes(host)
  // An address is judged itself: public, or inside a range the operator listed.
  const reachable = (address: string) => isPublicAddress(address) || inAllowedRange(list, address)
  if (isIpLiteral(host)) {
    if (!allowed && !reachable(host)) throw new OutboundError('private-address', host)
    return undefined
  }
  // An internal name is refused unless it is listed, or resolves and its addresses can be checked against listed ranges.
  if (!allowed && isInternalName(host) && !(policy.resolveHost && listsRanges(list))) throw new OutboundError('private-address', host)
  if (!policy.resolveHost) return undefined
  const checked = (addresses: string[]) => {
    if (!addresses.length) throw new OutboundError('host-not-found', host)
    if (!allowed && !addresses.every(reachable)) throw new OutboundError('private-address', host)
    // IPv4 first: a service on a dual-stack name often listens on IPv4 only.
    return [...addresses.filter((a) => !a.includes(':')), ...addresses.filter((a) => a.includes(':'))]
  }
  const known = policy.resolveHost.known?.(host)
  if (known) return checked(known)
  let lookup: Promise<string[]>
  try {
    lookup = policy.resolveHost(host)
  } catch {
    return checked([])
  }
  // A lookup that fails finds nothing.
  return lookup.then(checked, () => checked([]))
}

/** The URL if it may be requested at all: http(s), without a user name or password. */
function target(input: string): URL {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    throw new OutboundError('invalid-url')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('protocol', url.hostname)
  if (url.username || url.password) throw new OutboundError('credentials', url.hostname)
  return url
}

/** Counts the body's bytes and fails its read past `maxBytes`; a read cut by the time limit fails with OutboundError 'timeout'. */
function guardBody(response: Response, maxBytes: number | undefined, timeout: () => OutboundError | undefined): Response {
  if (!response.body) return response
  const declared = Number(response.headers.get('content-length'))
  if (maxBytes !== undefined && Number.isFinite(declared) && declared > maxBytes) {
    response.body.cancel().catch(() => {})
    throw new OutboundError('too-large')
  }
  const reader = response.body.getReader()
  let size = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>
      try {
        chunk = await reader.read()
      } catch (error) {
        return controller.error(timeout() ?? error)
      }
      if (chunk.done) return controller.close()
      size += chunk.value.byteLength
      if (maxBytes !== undefined && size > maxBytes) {
        reader.cancel().catch(() => {})
        return controller.error(new OutboundError('too-large'))
      }
      controller.enqueue(chunk.value)
    },
    cancel: (reason) => reader.cancel(reason),
  })
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}
