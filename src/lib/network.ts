import { isIpLiteral, isPublicIp } from './ip-address'

/**
 * Whether a host name or IP literal points into a private, loopback, link-local or otherwise
 * non-public network. IP literals in any written form (`::ffff:7f00:1`, `[::1]`, …) are judged by
 * `isPublicIp` (ip-address.ts); host names by name only (localhost, .local, .internal):
 * resolving them is the caller's job where it matters.
 */
export function isPrivateHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '')
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true
  return isIpLiteral(h) && !isPublicIp(h)
}
