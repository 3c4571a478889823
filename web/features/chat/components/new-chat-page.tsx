import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { Sparkles } from '../../../components/icons'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { agentQueries } from '../../../lib/agent-queries'
import { collectionQueries, type AttachedCollection } from '../../../lib/collection-queries'
import { sessionQueries } from '../../../lib/session'
import { promptVariables, type PromptToFill } from '../../../lib/fill-variables'
import { threadDetailKey, threadsApi, upsertThreadInList, type ThreadDetail } from '../api'
import type { PromptPickerSlot, PromptVariablesSlot, UseNewChatAttachments } from '../lib/slots'
import type { NewChatData } from '../lib/new-chat'
import { setPendingMessage } from '../lib/pending-message'
import { AgentPicker } from './agent-picker'
import { ChatHeader } from './chat-header'
import { Composer } from './composer'
import { UpgradeNotice } from './upgrade-notice'
import { preloadMarkdown } from './markdown'
import { ModelPicker } from './model-picker'
import { NoModelNotice } from './no-model-notice'
import { modelListQueries } from '../../../lib/model-lists'

/**
 * /chat: a greeting and the message field. The first message creates the chat with the picked
 * model, then the chat's page uploads the files chosen here and sends it (both handed over through
 * the pending-message store). A prefilled prompt with variables asks for their values first.
 */
export function NewChatPage(props: {
  data: NewChatData
  useAttachments: UseNewChatAttachments
  promptPicker: PromptPickerSlot
  PromptVariables: PromptVariablesSlot
}) {
  const { data, useAttachments, PromptVariables } = props
  const { t } = useTranslation('chat')
  const api = useApi()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const me = useSuspenseQuery(sessionQueries.me(api)).data
  const models = useSuspenseQuery(modelListQueries.languageModels(api)).data
  const agents = useQuery(agentQueries.list(api)).data ?? []
  const [modelId, setModelId] = useState(data.modelId)
  const [agent, setAgent] = useState(data.agent)
  const model = models.find((m) => m.id === modelId) ?? null
  const files = useAttachments({ isEmbeddingModelEnabled: data.isEmbeddingModelEnabled, isAdmin: me.role === 'admin' })
  const prefill = useMemo(() => prefillOf(data), [data])
  const [toFill, setToFill] = useState<PromptToFill | null>(prefill.toFill)
  const [restore, setRestore] = useState<{ text: string } | null>(null)

  // The chat page comes next: fetch its markdown renderer while the user types.
  useEffect(() => void preloadMarkdown(), [])

  const chooseAgent = (agentId: string | null) => {
    const chosen = agentId ? agents.find((a) => a.id === agentId) : undefined
    if (!chosen) {
      // Without the agent the chat goes on with the model it was showing, unless one was picked before.
      if (agent?.model) setModelId((current) => current ?? agent.model!.id)
      setAgent(null)
      return
    }
    setAgent({ id: chosen.id, name: chosen.name, model: chosen.available ? chosen.model : null })
  }

  const send = async (content: string) => {
    try {
      const thread = await threadsApi.create(api, agent ? { agentId: agent.id } : { modelId: model?.id })
      // The collections chosen before the first message are attached before it is sent; the chat's
      // page starts from the list the server answered (its own read may be cancelled by the send).
      for (const collectionId of files.collectionIds) {
        await api
          .put<AttachedCollection[]>(`/threads/${encodeURIComponent(thread.id)}/collections/${encodeURIComponent(collectionId)}`)
          .then((attached) => queryClient.setQueryData(collectionQueries.ofThread(api, thread.id).queryKey, attached))
          .catch((error) => toast.error(errorMessage(t, error)))
      }
      // What GET /threads/{id} would answer for the new chat, so that its page needs no request.
      const detail = { ...thread, messages: [], olderCursor: null, model: agent ? agent.model : model, agent: agent && { id: agent.id, name: agent.name }, sources: [] } as ThreadDetail
      queryClient.setQueryData<ThreadDetail>(threadDetailKey(thread.id), detail)
      upsertThreadInList(queryClient, thread, true)
      setPendingMessage(thread.id, content, files.files)
      await navigate({ to: '/chats/$threadId', params: { threadId: thread.id } })
      return true
    } catch (error) {
      toast.error(isApiError(error) ? errorMessage(t, error) : t('errors:MESSAGE_NOT_SENT'))
      return false
    }
  }

  // Without a subscription (cloud) the trial's messages can still be sent; the notice counts them down.
  const replyModel = agent ? agent.model : model

  return files.dropZone(
    <>
      <ChatHeader title={t('common:nav.newChat')}>
        <AgentPicker agents={agents} value={agent} model={agent?.model?.displayName ?? null} onChange={chooseAgent} />
        {!agent && <ModelPicker models={models} value={model} onChange={(m) => setModelId(m.id)} />}
      </ChatHeader>
      <div className="flex min-h-0 flex-1 flex-col items-center justify-center overflow-y-auto px-4 pb-8 text-center">
        <span aria-hidden className="mb-4 grid size-11 place-items-center rounded-2xl border bg-muted/50 text-muted-foreground">
          <Sparkles className="size-5" />
        </span>
        <h2 className="text-2xl font-semibold tracking-tight">{t('greeting', { name: me.name.split(' ')[0] })}</h2>
        <p className="mt-1 text-muted-foreground">{agent ? t('agent.greetingHint', { name: agent.name }) : t('greetingHint')}</p>
      </div>
      {!replyModel && (
        <NoModelNotice reason={agent ? 'agent' : models.length > 0 ? 'choose' : 'none'} isAdmin={me.role === 'admin'} />
      )}
      <UpgradeNotice isAdmin={me.role === 'admin'} />
      <Composer
        onSend={send}
        disabled={!replyModel}
        initialText={prefill.text}
        restore={restore}
        autoFocus
        attachments={files.chips}
        tools={files.attachButton}
        onPasteFiles={files.onPaste}
        promptPicker={props.promptPicker}
      />
      <PromptVariables
        prompt={toFill}
        onSubmit={(text) => {
          setToFill(null)
          setRestore({ text })
        }}
        onCancel={() => {
          // Not filled in: the prompt as it is, to edit by hand.
          setToFill(null)
          setRestore({ text: data.promptContent ?? '' })
        }}
      />
    </>,
    'flex h-full flex-col',
  )
}

/** The prompt of `?prompt=`: straight into the field, or (with variables) after asking for their values. */
function prefillOf(data: NewChatData): { text: string; toFill: PromptToFill | null } {
  const content = data.promptContent ?? ''
  const variables = promptVariables(content)
  if (variables.length === 0) return { text: content, toFill: null }
  return { text: '', toFill: { title: data.promptTitle ?? undefined, content, variables } }
}
