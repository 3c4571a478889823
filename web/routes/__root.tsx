import { createRootRouteWithContext, HeadContent, Outlet, Scripts, useRouter } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Toaster } from 'sonner'
import { ConfirmDialogHost } from '../components/confirm-dialog'
import { themeScript } from '../lib/theme'
import type { RouterContext } from '../router-context'

export const Route = createRootRouteWithContext<RouterContext>()({
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
  return (
    // The theme script may add `dark` before React hydrates.
    <html lang={i18n.language} suppressHydrationWarning>
      <head>
        {/* Browsers hide a nonce from the DOM once parsed, so the client never matches it. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: themeScript }} />
        <HeadContent />
      </head>
      <body>
        <Outlet />
        <ConfirmDialogHost />
        <Toaster position="top-right" theme="light" richColors closeButton />
        <Scripts />
      </body>
    </html>
  )
}
