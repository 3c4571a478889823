/**
 * Whether an IP address is one the public internet routes to. Reads every written form of IPv6
 * (`::ffff:7f00:1` is 127.0.0.1, brackets, zone ids) and the ranges that embed an IPv4 address
 * (mapped, compatible, NAT64, 6to4). `isPrivateHost` (src/lib/network.ts) judges IP literals by it.
 */
export function isPublicIp(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const v4 = parseIpv4(ip)
  if (v4) return isPublicIpv4(v4)
  const v6 = parseIpv6(ip)
  return v6 ? isPublicIpv6(v6) : false
}

/** Whether the text is an IP literal (v4 dotted, or v6 with or without brackets). */
export const isIpLiteral = (host: string) => {
  const ip = host.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  return parseIpv4(ip) !== undefined || parseIpv6(ip) !== undefined
}

/**
 * The block one client controls, for counting failures by address: an IPv4 address itself, an
 * IPv6 address's /64 (one subscriber's network: its host half is the client's to choose). An
 * IPv4-mapped IPv6 address counts as its IPv4 address; anything else is taken as written.
 */
export function addressBlock(address: string): string {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (parseIpv4(ip)) return ip
  const g = parseIpv6(ip)
  if (!g) return address
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff].join('.')
  return `${g.slice(0, 4).map((x) => x.toString(16)).join(':')}::/64`
}

function parseIpv4(ip: string): number[] | undefined {
  const parts = ip.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined
  const nums = parts.map(Number)
  return nums.every((n) => n <= 255) ? nums : undefined
}

function isPublicIpv4([a, b, c]: number[]): boolean {
  if (a === 0 || a === 10 || a === 127 || a! >= 224) return false // this network, private, loopback, multicast, reserved
  if (a === 100 && b! >= 64 && b! <= 127) return false // carrier-grade NAT
  if (a === 169 && b === 254) return false // link-local, cloud metadata
  if (a === 172 && b! >= 16 && b! <= 31) return false
  if (a === 192 && b === 168) return false
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return false // protocol assignments, documentation
  if (a === 192 && b === 88 && c === 99) return false // 6to4 relay
  if (a === 198 && (b === 18 || b === 19)) return false // benchmarking
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return false // documentation
  return true
}

/** Eight 16-bit groups, or undefined when the text is no IPv6 address. */
function parseIpv6(ip: string): number[] | undefined {
  if (!ip.includes(':') || !/^[0-9a-f:.]+$/i.test(ip)) return undefined
  let text = ip
  const tail: number[] = []
  const dotted = text.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) {
    const v4 = parseIpv4(dotted[2]!)
    if (!v4) return undefined
    tail.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!)
    text = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1)
  }
  const halves = text.split('::')
  if (halves.length > 2) return undefined
  const groups = (s: string) => (s ? s.split(':') : [])
  const head = groups(halves[0]!)
  const rest = halves.length === 2 ? groups(halves[1]!) : []
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined
  const written = head.length + rest.length + tail.length
  if (halves.length === 1 ? written !== 8 : written > 7) return undefined
  const zeros = new Array<number>(8 - written).fill(0)
  return [...head.map((g) => parseInt(g, 16)), ...zeros, ...rest.map((g) => parseInt(g, 16)), ...tail]
}

function isPublicIpv6(g: number[]): boolean {
  const embedded = (hi: number, lo: number) => isPublicIpv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff])
  const zeroUntil = (n: number) => g.slice(0, n).every((x) => x === 0)
  if (zeroUntil(5) && g[5] === 0xffff) return embedded(g[6]!, g[7]!) // IPv4-mapped
  if (zeroUntil(6)) return false // unspecified, loopback, IPv4-compatible (deprecated)
  // NAT64: the well-known prefix embeds an IPv4 address; the local-use prefix 64:ff9b:1::/48 is private.
  if (g[0] === 0x64 && g[1] === 0xff9b) return g.slice(2, 6).every((x) => x === 0) && embedded(g[6]!, g[7]!)
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!) // 6to4
  if (g[0] === 0x2001 && (g[1] === 0 || g[1] === 0xdb8)) return false // Teredo, documentation
  if (g[0] === 0x100 && g.slice(1, 4).every((x) => x === 0)) return false // discard
  const first = g[0]!
  // Unique local, link-local, site-local (deprecated), multicast; outside 2000::/3 nothing is globally routed.
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0 || (first & 0xff00) === 0xff00) return false
  return (first & 0xe000) === 0x2000
}
