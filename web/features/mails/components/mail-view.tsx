import type { OutboxMail } from '../api'

/**
 * One mail as its recipient sees it, in a sandboxed frame: no scripts, no access to Kontor's page.
 * Its links open in this tab (a click is a user's navigation), so an invitation, a confirmation or
 * a reset can be followed from here.
 */
export function MailView({ mail }: { mail: OutboxMail }) {
  const html = mail.html.replace(/<a\s/gi, '<a target="_top" ')
  return (
    <iframe
      title={mail.subject}
      srcDoc={html}
      sandbox="allow-top-navigation-by-user-activation allow-popups"
      className="h-[28rem] w-full rounded-md border bg-white"
    />
  )
}
