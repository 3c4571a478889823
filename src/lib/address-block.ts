import ipaddr from 'ipaddr.js'

/**
 * The block one client controls, for counting failures by address: an IPv4 address itself, an
 * IPv6 address's /64 (one subscriber's network: its host half is the client's to choose). An
 * IPv4-mapped IPv6 address counts as its IPv4 address; anything else is taken as written.
 */
export function addressBlock(address: string): string {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) return ip
  if (!ipaddr.IPv6.isValid(ip)) return address
  const v6 = ipaddr.IPv6.parse(ip)
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString()
  return `${v6.parts.slice(0, 4).map((x) => x.toString(16)).join(':')}::/64`
}
