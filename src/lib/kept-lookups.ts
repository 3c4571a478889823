/** A resolver of host names for outbound requests (src/lib/outbound.ts); `forget` drops what it keeps of a host. */
export type HostResolver = ((hostname: string) => Promise<string[]>) & { forget?: (hostname: string) => void }

/** How long a host's addresses are kept: as long as Bun's fetch keeps its own lookups. */
export const KEPT_LOOKUP_MS = 30_000
/** How many hosts are kept at most (Bun's fetch keeps 255): the one looked up longest ago goes first. */
export const KEPT_LOOKUPS = 256

/**
 * `resolve` with its answers kept for KEPT_LOOKUP_MS per host, one lookup at a time per host
 * (callers meanwhile share it). Outbound requests connect to the addresses they checked (decision
 * 0120), so Bun's own cache of lookups, which fetch uses for names, never serves them: without
 * this, every model call to a provider by name looked its host up again through node:dns before
 * the request could leave (a thread of the resolver, /etc/hosts, and a DNS server where the
 * system keeps no cache). A failed or empty answer is not kept, and `forget` drops a host whose
 * addresses could not be reached (it may have moved). What is kept is only where a name points:
 * each request still checks the addresses against its own policy.
 */
export function keptLookups(resolve: (hostname: string) => Promise<string[]>, now: () => number = Date.now): HostResolver {
  const kept = new Map<string, { addresses: Promise<string[]>; until: number }>()
  const forget = (hostname: string) => void kept.delete(hostname)
  const lookup = (hostname: string) => {
    const entry = kept.get(hostname)
    if (entry && entry.until > now()) return entry.addresses
    kept.delete(hostname)
    if (kept.size >= KEPT_LOOKUPS) forget(kept.keys().next().value!)
    const addresses = resolve(hostname)
    kept.set(hostname, { addresses, until: now() + KEPT_LOOKUP_MS })
    const dropIfOwn = () => void (kept.get(hostname)?.addresses === addresses && kept.delete(hostname))
    addresses.then((found) => found.length || dropIfOwn(), dropIfOwn)
    return addresses
  }
  return Object.assign(lookup, { forget })
}
