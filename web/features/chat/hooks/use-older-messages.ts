import { useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { threadsApi } from '../api'
import { updateThread } from '../lib/thread-cache'

/**
 * The messages before those shown, a page at a time, put in front of them in the chat's cache. A
 * long chat opens with its newest page only (its HTML and cache stay small); the list asks for
 * more as the user scrolls up.
 */
export function useOlderMessages(threadId: string, olderCursor: number | null) {
  const { t } = useTranslation('chat')
  const api = useApi()
  const queryClient = useQueryClient()
  const inFlight = useRef<number | null>(null)
  // Scrolling retries a failed page; its error is told once.
  const reported = useRef<number | null>(null)
  const [loading, setLoading] = useState(false)

  const load = async () => {
    if (olderCursor === null || inFlight.current === olderCursor) return
    inFlight.current = olderCursor
    setLoading(true)
    try {
      const page = await threadsApi.older(api, threadId, olderCursor)
      updateThread(queryClient, threadId, (thread) => {
        // Another load (or a re-read that dropped the older pages) got there first.
        if (thread.olderCursor !== olderCursor) return thread
        const shown = new Set(thread.messages.map((m) => m.id))
        return { ...thread, messages: [...page.messages.filter((m) => !shown.has(m.id)), ...thread.messages], olderCursor: page.olderCursor }
      })
    } catch (error) {
      if (reported.current !== olderCursor) toast.error(errorMessage(t, error))
      reported.current = olderCursor
    } finally {
      inFlight.current = null
      setLoading(false)
    }
  }

  return { hasOlder: olderCursor !== null, loading, load }
}

export type OlderMessages = ReturnType<typeof useOlderMessages>
