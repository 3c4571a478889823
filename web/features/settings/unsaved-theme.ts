import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { SESSION_QUERY_KEY, type Me } from '../../lib/session'
import { unsavedTheme } from '../../lib/theme'
import { useChangeTheme } from './api'

/**
 * Sends the member's account the theme they chose in this browser when its save did not arrive (a
 * reload or a lost connection cut it off), once per page load of the signed-in app. A failure is
 * left quiet: the choice stays marked and the next page tries again.
 */
export function useSaveUnsavedTheme() {
  const memberId = useQueryClient().getQueryData<Me>(SESSION_QUERY_KEY)?.id
  const { mutate } = useChangeTheme()
  useEffect(() => {
    const theme = memberId ? unsavedTheme(memberId) : null
    // Its answer clears the mark (useChangeTheme).
    if (theme) mutate(theme)
  }, [memberId, mutate])
}
