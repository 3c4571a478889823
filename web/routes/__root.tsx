import { useQueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, HeadContent, Outlet, Scripts, useRouter } from '@tanstack/react-router'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmDialogHost } from '../components/confirm-dialog'
import { ToasterHost } from '../components/toaster'
import { ensureErrorStrings, languageCookie } from '../lib/i18n'
import { SESSION_QUERY_KEY, type Me } from '../lib/session'
import { HYDRATED_EVENT } from '../lib/hydrated'
import { themeScript } from '../lib/theme'
import type { RouterContext } from '../router-context'

export const Route = createRootRouteWithContext<RouterContext>()({
  // A page the browser navigates to may show an error message in its first render: its strings
  // are there first (the sign-in pages hydrate without them; the server renders every page with them).
  // A chunk that fails to load (a lost connection, a deploy in between) leaves the messages to the server's text; it never stops a page.
  beforeLoad: ({ context }) => ensureErrorStrings(context.i18n).catch(() => {}),
  head: () => ({
    meta: [
      { charSet: 'utf-8' },
      { name: 'viewport', content: 'width=device-width, initial-scale=1' },
      { name: 'color-scheme', content: 'light dark' },
      { title: 'Kontor' },
    ],
    links: [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }],
  }),
  component: RootDocument,
})

function RootDocument() {
  const { i18n } = useTranslation()
  // The page's Content-Security-Policy runs only inline scripts that carry the request's nonce.
  const nonce = useRouter().options.ssr?.nonce
  // The server reads the caller before it renders (src/ssr/render.tsx): their account's theme and language.
  const me = useQueryClient().getQueryData<Me>(SESSION_QUERY_KEY)
  const account = me ? { id: me.id, theme: me.theme, lang: me.locale, cookie: languageCookie(me.locale) } : undefined
  // The server's page keeps clicks made before the page's script runs (src/ssr/early-clicks.ts); the browser renders the head without it.
  const earlyClicks = Route.useRouteContext().earlyClicks ?? ''
  // The page is hydrated: what waited for that may go on (the clicks kept before, web/entry-client.tsx).
  useEffect(() => void document.dispatchEvent(new Event(HYDRATED_EVENT)), [])
  return (
    // Before React hydrates, the theme script may add or remove `dark` and, for a member, set `lang` and the language cookie.
    <html lang={i18n.language} suppressHydrationWarning>
      <head>
        {/* Browsers hide a nonce from the DOM once parsed, so the client never matches it; nor does it render the server's script for early clicks (React leaves the text as it is). */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: `${themeScript(account)};${earlyClicks}` }} />
        <HeadContent />
      </head>
      <body>
        <Outlet />
        <ConfirmDialogHost />
        <ToasterHost />
        <Scripts />
      </body>
    </html>
  )
}
