import { useEffect } from 'react'

const APP_NAME = 'Kontor'

/** The browser tab shows `title · Kontor` while the component is shown, and `Kontor` again after. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · ${APP_NAME}`
  }, [title])
  // The route's head renders `Kontor` and does not know the tab was renamed since: put it back.
  useEffect(() => () => void (document.title = APP_NAME), [])
}
