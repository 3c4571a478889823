import ipaddr from 'ipaddr.js'
import { isIpLiteral } from './public-address'

/**
 * KONTOR_FETCH_ALLOWED_HOSTS: the internal hosts the server may reach all the same, as host names
 * (`wiki.intranet`, `vllm`), IP addresses (`10.0.0.7`, `fd00::7`) or CIDR ranges (`10.20.0.0/16`,
 * `fd00:1::/64`). A name or an address allows that very host in a URL (a name whatever it
 * resolves to); a range allows the addresses in it, written in a URL or resolved from any name.
 */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/

const isAddress = isIpLiteral

function rangeOf(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined {
  if (!entry.includes('/')) return undefined
  try {
    return ipaddr.parseCIDR(entry)
  } catch {
    return undefined
  }
}

/** Whether one entry of the list is a host name, an IP address or a CIDR range. */
export function isAllowedHostEntry(entry: string): boolean {
  return isAddress(entry) || rangeOf(entry) !== undefined || (HOST_NAME.test(entry) && !/^[\d.]+$/.test(entry))
}

/**
 * Whether `address` (an IP literal, as written or resolved) lies in a listed range. A single
 * listed address matches only itself, as a name does (the exact host of a URL); its other
 * spellings (IPv4-mapped and the like) stay refused, and so do they for ranges.
 */
export function inAllowedRange(allowed: readonly string[], address: string): boolean {
  if (!isAddress(address)) return false
  const ip = ipaddr.parse(address)
  return allowed.some((entry) => {
    const range = rangeOf(entry)
    return range !== undefined && range[0].kind() === ip.kind() && ip.match(range as [ipaddr.IPv4, number])
  })
}

/** Whether the list holds a range: only then may an internal name be resolved and its addresses checked against it. */
export const listsRanges = (allowed: readonly string[]) => allowed.some((entry) => rangeOf(entry) !== undefined)
