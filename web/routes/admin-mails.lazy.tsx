import { createLazyRoute } from '@tanstack/react-router'
import { MailsPage, MailsPageSkeleton } from '../features/mails/components/mails-page'

export const Route = createLazyRoute('/app/admin-settings/mails')({
  pendingComponent: MailsPageSkeleton,
  component: MailsPage,
})
