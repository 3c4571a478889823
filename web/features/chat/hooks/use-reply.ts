import { useQueryClient } from '@tanstack/react-query'
import { useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import type { ApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { BUDGET_NOTICE_KEY, followReply, isReplying, runReply, stopReply, subscribeReplies, type BudgetNotice } from '../lib/reply-runner'
import type { ReplyRequest } from '../lib/stream'

/** Whether this tab is receiving a reply for the thread right now (its own, or one it follows). */
export function useIsReplying(threadId: string) {
  return useSyncExternalStore(
    subscribeReplies,
    () => isReplying(threadId),
    () => false,
  )
}

type SendOptions = { onStarted?: () => void }
type ActionOptions = { onRefused?: (error: ApiError) => void }

/**
 * Send, edit-and-resend, regenerate, stop (wherever the reply runs) and following a reply this tab
 * did not start, for one thread. Each resolves to whether the server
 * took the request; when it did not, the reason is shown as a toast and the caller gives the text back.
 */
export function useReplyActions(threadId: string, { onRefused }: ActionOptions = {}) {
  const queryClient = useQueryClient()
  const { t } = useTranslation()

  const run = async (request: ReplyRequest, options: SendOptions = {}) => {
    const outcome = await runReply({ queryClient, request, onStarted: options.onStarted })
    if (!outcome.ok) {
      toast.error(errorMessage(t, outcome.error))
      // A used-up budget stays in view above the composer (the toast goes): 100% of which limit.
      const budget = outcome.error.code === 'BUDGET_EXCEEDED' ? outcome.error.details : undefined
      if (budget) {
        const limit = Number(budget.limit)
        queryClient.setQueryData<BudgetNotice>(BUDGET_NOTICE_KEY, {
          scope: budget.scope as BudgetNotice['scope'],
          group: budget.group ? String(budget.group) : null,
          metric: budget.metric as BudgetNotice['metric'],
          limit,
          spent: limit,
        })
      }
      onRefused?.(outcome.error)
    }
    return outcome.ok
  }

  return {
    send: (content: string, options?: SendOptions) => run({ kind: 'send', threadId, content }, options),
    editLast: (content: string) => run({ kind: 'send', threadId, content, replaceLast: true }),
    regenerate: () => run({ kind: 'regenerate', threadId }),
    stop: () => stopReply(threadId),
    follow: (messageId: string) => void followReply({ queryClient, threadId, messageId }),
  }
}
