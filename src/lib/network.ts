/**
 * Whether a host name or IP literal points into a private, loopback, link-local or otherwise
 * non-public network. Host names are judged by name only (localhost, .local, .internal);
 * resolving them is the caller's job where it matters.
 */
export function isPrivateHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '')
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true
  const v4 = ipv4(h)
  if (v4) return isPrivateIpv4(v4)
  if (h.includes(':')) return isPrivateIpv6(h)
  return false
}

function ipv4(h: string): number[] | undefined {
  const parts = h.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined
  const nums = parts.map(Number)
  return nums.every((n) => n <= 255) ? nums : undefined
}

function isPrivateIpv4([a, b]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b! >= 64 && b! <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a! >= 224 // multicast and reserved
  )
}

function isPrivateIpv6(h: string): boolean {
  if (h === '::' || h === '::1') return true
  const mapped = h.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/)
  if (mapped) return isPrivateIpv4(ipv4(mapped[1]!)!)
  const first = parseInt(h.split(':')[0] || '0', 16)
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00
}
