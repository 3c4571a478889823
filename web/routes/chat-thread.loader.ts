import { notFound } from '@tanstack/react-router'
import { loadThreadThrough, threadQueries } from '../features/chat/api'
import { preloadMarkdown } from '../features/chat/components/markdown'
import { isApiError } from '../lib/api-client'
import { modelListQueries } from '../lib/model-lists'
import type { RouterContext } from '../router-context'

/** The thread (through the message to show, if one is asked for) and the model lists its composer offers. */
export async function loader({ context, params, deps }: { context: RouterContext; params: { threadId: string }; deps: { message?: string } }) {
  // The browser starts loading the markdown renderer and its code highlighter; the server waits for
  // both (once per process), so that the replies it renders are markdown in place, their code
  // highlighted, not streamed in after their text.
  const markdown = preloadMarkdown()
  try {
    const [, thread] = await Promise.all([
      typeof window === 'undefined' ? markdown : undefined,
      deps.message
        ? loadThreadThrough(context.queryClient, context.api, params.threadId, deps.message)
        : context.queryClient.ensureQueryData(threadQueries.detail(context.api, params.threadId)),
      context.queryClient.ensureQueryData(modelListQueries.embeddingEnabled(context.api)),
      context.queryClient.ensureQueryData(modelListQueries.languageModels(context.api)),
    ])
    return { title: thread.title }
  } catch (error) {
    if (isApiError(error) && error.code === 'THREAD_NOT_FOUND') throw notFound()
    throw error
  }
}
