import { useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { useDocumentTitle } from '../hooks/use-document-title'
import { shareQueries, useContinueShare } from '../share-api'
import { AssistantMessage } from './assistant-message'
import { ThreadNotFound } from './chat-skeletons'
import { UserMessage } from './user-message'

/** A chat shared in the organisation: read-only, as it was when shared, with "Continue this chat". */
export function SharedChatPage(props: { shareId: string }) {
  const { t, i18n } = useTranslation('chat')
  const api = useApi()
  const navigate = useNavigate()
  const { data: shared } = useSuspenseQuery(shareQueries.shared(api, props.shareId))
  const continueChat = useContinueShare()
  useDocumentTitle(shared.title)
  const sharedAt = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(shared.createdAt))

  const onContinue = () =>
    continueChat.mutate(props.shareId, {
      onSuccess: (thread) => void navigate({ to: '/chats/$threadId', params: { threadId: thread.id } }),
      onError: (error) => toast.error(`${t('shared.continueFailed')} ${errorMessage(t, error)}`),
    })

  return (
    <div className="flex h-full flex-col">
      <header className="flex flex-wrap items-center gap-3 border-b px-4 py-3">
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-lg font-semibold">{shared.title}</h1>
          <p className="text-sm text-muted-foreground">{t('shared.by', { name: shared.sharedBy.name, date: sharedAt })}</p>
        </div>
        <Button onClick={onContinue} disabled={continueChat.isPending}>
          {t('shared.continue')}
        </Button>
      </header>
      <section aria-label={t('thread.messages')} className="min-h-0 flex-1 overflow-y-auto">
        {shared.messages.map((message) => (
          <div key={message.id} className="mx-auto w-full max-w-3xl px-4 py-2.5">
            {message.role === 'user' ? (
              <UserMessage message={{ ...message, parentId: null, siblingIds: [] }} />
            ) : (
              <AssistantMessage message={{ ...message, parentId: null, siblingIds: [] }} />
            )}
          </div>
        ))}
      </section>
    </div>
  )
}

export const SharedChatNotFound = () => <ThreadNotFound code="SHARE_NOT_FOUND" />
