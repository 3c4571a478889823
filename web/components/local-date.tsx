import { useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'

const noSubscription = () => () => {}

/**
 * A date in the reader's language and time zone. The server does not know the reader's zone, so
 * server render and hydration both use UTC (and agree); the browser's zone follows right after.
 */
export function LocalDate(props: { iso: string; className?: string; withTime?: boolean }) {
  const { i18n } = useTranslation()
  const inBrowser = useSyncExternalStore(noSubscription, () => true, () => false)
  const date = new Date(props.iso)
  const timeZone = inBrowser ? undefined : 'UTC'
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', ...(props.withTime && { timeStyle: 'short' }), timeZone }).format(date)
  const full = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeStyle: 'short', timeZone }).format(date)
  return (
    <time dateTime={props.iso} title={full} className={props.className}>
      {day}
    </time>
  )
}
