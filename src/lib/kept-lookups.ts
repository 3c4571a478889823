/**
 * A resolver of host names for outbound requests (src/lib/outbound.ts): `known` answers at once
 * what it keeps of a host (undefined while it has to look the host up), `forget` drops it.
 */
export type HostResolver = ((hostname: string) => Promise<string[]>) & { known?: (hostname: string) => string[] | undefined; forget?: (hostname: string) => void }

/** How long a host's addresses are kept: as long as Bun's fetch keeps its own lookups. */
export const KEPT_LOOKUP_MS = 30_000
/** How many hosts are kept at most (Bun's fetch keeps 255): the one looked up longest ago goes first. */
export const KEPT_LOOKUPS = 256

/** A host's lookup: its promise, its addresses once found, and until when they are kept. */
type Kept = { addresses: Promise<string[]>; found?: string[]; until: number }

/**
 * `resolve` with its answers kept for KEPT_LOOKUP_MS per host, one lookup at a time per host
 * (callers meanwhile share it). Outbound requests connect to the addresses they checked
 * (src/lib/outbound.ts), so Bun's own cache of lookups, which fetch uses for names, never serves
 * them: without this, every model call to a provider by name looked its host up again through
 * node:dns before the request could leave (a thread of the resolver, /etc/hosts, and a DNS server
 * where the system keeps no cache). `known` gives the addresses kept, so that the request can
 * leave at once. A failed or empty answer is not kept; `forget` drops what is kept of a host (a
 * lookup in progress too) whose addresses could not be reached in time (it may have moved). Only
 * where a name points is kept: each request still checks the addresses against its own policy.
 */
export function keptLookups(resolve: (hostname: string) => Promise<string[]>, now: () => number = Date.now): HostResolver {
  const kept = new Map<string, Kept>()
  const forget = (hostname: string) => void kept.delete(hostname)
  const fresh = (hostname: string) => {
    const entry = kept.get(hostname)
    return entry && entry.until > now() ? entry : undefined
  }
  const lookup = (hostname: string) => {
    const entry = fresh(hostname)
    if (entry) return entry.addresses
    kept.delete(hostname)
    if (kept.size >= KEPT_LOOKUPS) forget(kept.keys().next().value!)
    const addresses = resolve(hostname)
    const added: Kept = { addresses, until: now() + KEPT_LOOKUP_MS }
    kept.set(hostname, added)
    const dropIfOwn = () => void (kept.get(hostname) === added && kept.delete(hostname))
    addresses.then((found) => (found.length ? void (added.found = found) : dropIfOwn()), dropIfOwn)
    return addresses
  }
  return Object.assign(lookup, { known: (hostname: string) => fresh(hostname)?.found, forget })
}
