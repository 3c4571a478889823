import type { EmailDraft } from './tool-data'

/** The addresses of a To field: separated by commas or semicolons, blanks dropped. */
export const splitAddresses = (to: string) =>
  to
    .split(/[,;]/)
    .map((a) => a.trim())
    .filter(Boolean)

/**
 * A mailto: link that opens the draft in the user's mail program (RFC 6068): every part
 * percent-encoded (so `&`, `?`, `#` and `%` in a subject or body survive), spaces as %20 rather
 * than +, line breaks as CRLF; the addresses comma-separated, their @ left readable.
 */
export function mailtoHref(draft: EmailDraft): string {
  const to = splitAddresses(draft.to)
    .map((a) => encodeURIComponent(a).replace(/%40/g, '@'))
    .join(',')
  const query: string[] = []
  if (draft.subject.trim()) query.push(`subject=${encodeURIComponent(draft.subject)}`)
  if (draft.body) query.push(`body=${encodeURIComponent(draft.body.replace(/\r\n|\r|\n/g, '\r\n'))}`)
  return `mailto:${to}${query.length ? `?${query.join('&')}` : ''}`
}

/** The draft as plain text, for the clipboard. */
export function draftText(draft: EmailDraft, labels: { to: string; subject: string }): string {
  const head = [draft.to.trim() && `${labels.to}: ${draft.to.trim()}`, draft.subject.trim() && `${labels.subject}: ${draft.subject.trim()}`].filter(Boolean)
  return head.length ? `${head.join('\n')}\n\n${draft.body}` : draft.body
}
