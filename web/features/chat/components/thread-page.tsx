import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from 'sonner'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { authQueries } from '../../auth/api'
import { modelQueries } from '../../models/api'
import { threadDetailKey, threadQueries, useSetThreadModel, type ThreadDetail } from '../api'
import { useIsReplying, useReplyActions } from '../hooks/use-reply'
import { clearPendingMessage, takePendingMessage } from '../lib/pending-message'
import { isReplying } from '../lib/reply-runner'
import { isStreaming } from '../lib/thread-cache'
import { AgentBadge } from './agent-badge'
import { ChatHeader } from './chat-header'
import { Composer } from './composer'
import { MessageList } from './message-list'
import { ModelPicker } from './model-picker'
import { NoModelNotice } from './no-model-notice'
import { UpgradeNotice } from './upgrade-notice'

/** How often a reply that another page load is receiving is re-read (after a reload mid-stream). */
const REMOTE_POLL_MS = 1000

/** /chats/{id}: the messages, the model in the header, the message field. */
export function ThreadPage({ threadId }: { threadId: string }) {
  const { t } = useTranslation('chat')
  const api = useApi()
  const queryClient = useQueryClient()
  const me = useSuspenseQuery(authQueries.me(api)).data
  const thread = useSuspenseQuery({
    ...threadQueries.detail(api, threadId),
    refetchInterval: (query) => (isStreaming(query.state.data) && !isReplying(threadId) ? REMOTE_POLL_MS : false),
  }).data
  const models = useQuery(modelQueries.languageModels(api)).data ?? []
  const replying = useIsReplying(threadId)
  const [needsUpgrade, setNeedsUpgrade] = useState(false)
  const actions = useReplyActions(threadId, { onRefused: (error) => error.code === 'SUBSCRIPTION_REQUIRED' && setNeedsUpgrade(true) })
  const setModel = useSetThreadModel(threadId)
  const [restore, setRestore] = useState<{ text: string } | null>(null)

  // The first message of a chat started on /chat. Sent once: taking it empties the store, and after
  // a reload it is only sent while the server has no message of this chat yet.
  useEffect(() => {
    const content = takePendingMessage(threadId)
    if (content === null) return
    const current = queryClient.getQueryData<ThreadDetail>(threadDetailKey(threadId))
    if (current && current.messages.length > 0) {
      clearPendingMessage(threadId)
      return
    }
    void actions.send(content, { onStarted: () => clearPendingMessage(threadId) }).then((taken) => {
      if (taken) return
      clearPendingMessage(threadId)
      setRestore({ text: content })
    })
  }, [threadId])

  // After a reload mid-reply, the server still writes it: shown as it grows, but not stoppable here.
  const remoteStreaming = !replying && isStreaming(thread)
  const busy = replying || remoteStreaming

  const chooseModel = (modelId: string) =>
    setModel.mutate(modelId, { onError: (error) => toast.error(`${t('model.changeFailed')} ${errorMessage(t, error)}`) })

  return (
    <div className="flex h-full flex-col">
      <ChatHeader title={thread.title ?? t('untitled')}>
        {thread.agent ? (
          // The agent's model wins over the chat's own, so there is nothing to pick here.
          <AgentBadge name={thread.agent.name} model={thread.model?.displayName ?? null} />
        ) : (
          <ModelPicker models={models} value={thread.model} onChange={(m) => chooseModel(m.id)} disabled={busy || setModel.isPending} />
        )}
      </ChatHeader>
      <MessageList
        key={threadId}
        messages={thread.messages}
        busy={busy}
        onEdit={actions.editLast}
        onRegenerate={() => void actions.regenerate()}
      />
      {!thread.model && <NoModelNotice reason={thread.agent ? 'agent' : models.length > 0 ? 'choose' : 'none'} isAdmin={me.role === 'admin'} />}
      {needsUpgrade && <UpgradeNotice isAdmin={me.role === 'admin'} />}
      <Composer
        key={threadId}
        onSend={(content) => actions.send(content)}
        onStop={actions.stop}
        replying={replying}
        disabled={remoteStreaming || !thread.model}
        restore={restore}
        autoFocus
      />
    </div>
  )
}
