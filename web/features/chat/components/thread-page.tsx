import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { sessionQueries } from '../../../lib/session'
import { agentQueries } from '../../../lib/agent-queries'
import { threadDetailKey, threadQueries, useSetThreadAgent, useSetThreadModel, useShowVersion, type ThreadDetail } from '../api'
import { useOlderMessages } from '../hooks/use-older-messages'
import { useChangeThread } from '../hooks/use-change-thread'
import { useCopyMessage } from '../hooks/use-copy'
import { useShortcut } from '../../../lib/shortcuts'
import { useDocumentTitle } from '../hooks/use-document-title'
import { useIsReplying, useReplyActions } from '../hooks/use-reply'
import type { PromptPickerSlot, UseThreadAttachments } from '../lib/slots'
import { clearPendingMessage, takePendingMessage } from '../lib/pending-message'
import { lazyPart } from '../../../lib/lazy-part'
import { isReplying } from '../lib/reply-runner'
import { isStreaming, updateThread } from '../lib/thread-cache'
import { printPage } from '../lib/print'
import { AgentPicker } from './agent-picker'
import { ChatExportMenu } from './chat-export-menu'
import { ChatHeader } from './chat-header'
import { Composer } from './composer'
import { preloadMarkdown } from './markdown'
import { MessageList } from './message-list'
import { ModelPicker } from './model-picker'
import { NoModelNotice } from './no-model-notice'
import { QueuedMessage } from './queued-message'
import { BudgetNotice } from './budget-notice'
import { UpgradeNotice } from './upgrade-notice'
import { modelListQueries } from '../../../lib/model-lists'

/** How often a reply the server is writing is re-read while this tab cannot follow its stream. */
const REMOTE_POLL_MS = 1000

/** The share dialog's code loads when the "…" menu it is opened from first opens, and is mounted when it is first opened (decision 0132). */
const ShareDialog = lazyPart(() => import('./share-dialog').then((m) => m.ShareDialog))

/**
 * A message held back while the chat's files upload or process (the answer should draw on them).
 * pending: the chat's first message from /chat, kept in the pending-message store until sent.
 * now: the user chose not to wait.
 */
type Queued = { content: string; pending: boolean; now: boolean }

/** /chats/{id}: the messages, the model in the header, the chat's files, the message field. */
export function ThreadPage(props: {
  threadId: string
  /** A message to scroll to and highlight (a search result); `onRevealed` once it is shown. */
  reveal?: string
  onRevealed?: () => void
  useAttachments: UseThreadAttachments
  promptPicker: PromptPickerSlot
}) {
  const { threadId, useAttachments } = props
  const { t } = useTranslation('chat')
  const api = useApi()
  const queryClient = useQueryClient()
  const me = useSuspenseQuery(sessionQueries.me(api)).data
  const threadQuery = useSuspenseQuery({
    ...threadQueries.detail(api, threadId),
    refetchInterval: (query) => (isStreaming(query.state.data) && !isReplying(threadId) ? REMOTE_POLL_MS : false),
  })
  const thread = threadQuery.data
  const models = useQuery(modelListQueries.languageModels(api)).data ?? []
  const embedding = useSuspenseQuery(modelListQueries.embeddingEnabled(api)).data
  const files = useAttachments({
    threadId,
    sources: thread.sources,
    updatedAt: threadQuery.dataUpdatedAt,
    isEmbeddingModelEnabled: embedding.isEmbeddingModelEnabled,
    isAdmin: me.role === 'admin',
  })
  const replying = useIsReplying(threadId)
  const older = useOlderMessages(threadId, thread.olderCursor)
  const [needsUpgrade, setNeedsUpgrade] = useState(false)
  const actions = useReplyActions(threadId, { onRefused: (error) => error.code === 'SUBSCRIPTION_REQUIRED' && setNeedsUpgrade(true) })
  const setModel = useSetThreadModel(threadId)
  const setAgent = useSetThreadAgent(threadId)
  const showVersion = useShowVersion(threadId)
  const [sharing, setSharing] = useState(false)
  // The share dialog is mounted when it is first opened, and kept: it closes with its animation.
  const [shareOpened, setShareOpened] = useState(false)
  const actionsButton = useRef<HTMLButtonElement>(null)
  const share = () => {
    setShareOpened(true)
    setSharing(true)
  }
  const agents = useQuery(agentQueries.list(api)).data ?? []
  const changeThread = useChangeThread()
  const title = thread.title ?? t('untitled')
  useDocumentTitle(title)
  const [restore, setRestore] = useState<{ text: string } | null>(null)
  const [queued, setQueued] = useState<Queued | null>(null)

  // Once the page is interactive: the code highlighter too, so that code in a new reply is highlighted as it streams in.
  useEffect(() => void preloadMarkdown(), [])

  // The first message of a chat started on /chat, with its files. Sent once: taking it empties the
  // store, and after a reload it is only sent while the server has no message of this chat yet.
  useEffect(() => {
    const pending = takePendingMessage(threadId)
    if (pending === null) return
    const current = queryClient.getQueryData<ThreadDetail>(threadDetailKey(threadId))
    if (current && current.messages.length > 0) {
      clearPendingMessage(threadId)
      return
    }
    if (pending.files.length > 0) files.upload(pending.files)
    setQueued({ content: pending.content, pending: true, now: false })
  }, [threadId])

  // A reply the server is writing that this tab did not start (a reload, another tab or device):
  // followed from what the page shows, and stoppable here.
  const remoteStreaming = !replying && isStreaming(thread)
  const busy = replying || remoteStreaming
  const remoteReply = remoteStreaming ? thread.messages.at(-1)!.id : null
  useEffect(() => {
    if (remoteReply) actions.follow(remoteReply)
  }, [remoteReply])

  // A held message goes once nothing streams and the files are ready (or failed), or at once when asked.
  useEffect(() => {
    if (!queued || busy || (files.busy && !queued.now)) return
    setQueued(null)
    const { content, pending } = queued
    void actions.send(content, { onStarted: pending ? () => clearPendingMessage(threadId) : undefined }).then((taken) => {
      if (taken) return
      if (pending) clearPendingMessage(threadId)
      setRestore({ text: content })
    })
  }, [queued, busy, files.busy])

  const send = async (content: string) => {
    if (!files.busy) return actions.send(content)
    setQueued({ content, pending: false, now: false })
    return true
  }

  const editQueued = () => {
    if (!queued) return
    if (queued.pending) clearPendingMessage(threadId)
    setQueued(null)
    setRestore({ text: queued.content })
  }

  const chooseModel = (modelId: string) =>
    setModel.mutate(modelId, { onError: (error) => toast.error(`${t('model.changeFailed')} ${errorMessage(t, error)}`) })
  const chooseAgent = (agentId: string | null) =>
    setAgent.mutate(agentId, { onError: (error) => toast.error(`${t('agent.changeFailed')} ${errorMessage(t, error)}`) })
  const changing = busy || setModel.isPending || setAgent.isPending

  useShortcut('stopReply', actions.stop, replying)
  const { copy } = useCopyMessage()
  const lastReply = thread.messages.findLast((m) => m.role === 'assistant' && m.content)
  useShortcut('copyLastReply', () => void copy(lastReply!.content), lastReply !== undefined)

  // A long chat shows its newest page: the printout gets every message.
  const print = () =>
    void printPage(async () => {
      const shown = queryClient.getQueryData<ThreadDetail>(threadDetailKey(threadId))
      if (shown?.olderCursor === null) return
      const whole = await api.get<ThreadDetail>(`/threads/${encodeURIComponent(threadId)}`)
      updateThread(queryClient, threadId, (current) => ({ ...current, messages: whole.messages, olderCursor: null }))
    }).catch((error) => toast.error(errorMessage(t, error)))

  return files.dropZone(
    <>
      <ChatHeader title={title} onRename={(newTitle) => changeThread(threadId, { title: newTitle })}>
        <AgentPicker agents={agents} value={thread.agent} model={thread.model?.displayName ?? null} onChange={chooseAgent} disabled={changing} />
        {/* The agent's model wins over the chat's own, so there is no model to pick while an agent is set. */}
        {!thread.agent && <ModelPicker models={models} value={thread.model} onChange={(m) => chooseModel(m.id)} disabled={changing} />}
        <ChatExportMenu threadId={threadId} onPrint={print} onShare={share} onOpen={() => void ShareDialog.preload()} buttonRef={actionsButton} />
        {shareOpened && <ShareDialog threadId={threadId} open={sharing} onOpenChange={setSharing} returnFocusTo={actionsButton} />}
      </ChatHeader>
      <MessageList
        key={threadId}
        messages={thread.messages}
        busy={busy || showVersion.isPending}
        onEdit={actions.editLast}
        onRegenerate={() => void actions.regenerate()}
        onShowVersion={(messageId) => showVersion.mutate(messageId, { onError: (error) => toast.error(`${t('message.versionFailed')} ${errorMessage(t, error)}`) })}
        older={older}
        reveal={props.reveal}
        onRevealed={props.onRevealed}
      />
      {queued && <QueuedMessage content={queued.content} onSendNow={() => setQueued({ ...queued, now: true })} onEdit={editQueued} />}
      {!thread.model && <NoModelNotice reason={thread.agent ? 'agent' : models.length > 0 ? 'choose' : 'none'} isAdmin={me.role === 'admin'} />}
      <BudgetNotice />
      <UpgradeNotice isAdmin={me.role === 'admin'} refused={needsUpgrade} />
      <Composer
        key={threadId}
        onSend={send}
        onStop={actions.stop}
        replying={replying}
        disabled={remoteStreaming || !thread.model || queued !== null}
        restore={restore}
        autoFocus
        attachments={files.chips}
        tools={files.attachButton}
        onPasteFiles={files.onPaste}
        promptPicker={props.promptPicker}
      />
    </>,
    'flex h-full flex-col print:block print:h-auto',
  )
}
