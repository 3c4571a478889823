import ipaddr from 'ipaddr.js'

/** Which hosts and addresses are internal: what the outbound guard (src/lib/outbound.ts) refuses unless the operator allowed it. */

/** Names that only mean something inside a network; refused when they cannot be resolved and checked. */
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home', '.corp', '.intranet', '.localdomain', '.home.arpa']

export const isIpLiteral = (text: string) => ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text)

export const normalHost = (hostname: string) => hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '')

/** Names that cannot be public: localhost, single labels and the suffixes of internal networks. */
export function isInternalName(host: string): boolean {
  const h = normalHost(host)
  return h === 'localhost' || !h.includes('.') || INTERNAL_SUFFIXES.some((s) => h.endsWith(s))
}

/** Whether the public internet routes to this address; embedded IPv4 addresses (mapped, NAT64, 6to4) are judged themselves. */
export function isPublicAddress(address: string): boolean {
  const text = normalHost(address).replace(/%.*$/, '')
  if (!isIpLiteral(text)) return false
  const ip = ipaddr.process(text) // IPv4-mapped IPv6 becomes IPv4
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast' && !IPV4_NOT_PUBLIC.some((range) => ip.match(range))
  const v6 = ip as ipaddr.IPv6
  const bytes = v6.toByteArray()
  const embedded = (offset: number) => isPublicAddress(bytes.slice(offset, offset + 4).join('.'))
  switch (v6.range()) {
    case 'unicast':
      return !IPV6_NOT_PUBLIC.some((range) => v6.match(range))
    case 'rfc6052': // NAT64 well-known prefix 64:ff9b::/96; the local-use 64:ff9b:1::/48 is private
      return v6.match(ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number]) && embedded(12)
    case '6to4':
      return embedded(2)
    default:
      return false
  }
}

const IPV4_NOT_PUBLIC = ['192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24'].map(
  (cidr) => ipaddr.parseCIDR(cidr) as [ipaddr.IPv4, number],
)
/** Unicast by ipaddr's reckoning, but not globally routed: discard, documentation, Teredo; and all outside 2000::/3. */
const IPV6_NOT_PUBLIC = ['100::/64', '2001:db8::/32', '2001::/32', '::/3', '4000::/2', '8000::/1'].map((cidr) => ipaddr.parseCIDR(cidr) as [ipaddr.IPv6, number])

