import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/** An honest empty state for a screen whose feature is not in this version yet. */
/** `level` 2 inside layouts that already have the page's h1 (admin settings). */
export function ComingSoon(props: { title: ReactNode; text: ReactNode; icon?: ReactNode; level?: 1 | 2 }) {
  const { t } = useTranslation()
  const Heading = props.level === 2 ? 'h2' : 'h1'
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-3 px-6 py-20 text-center">
      {props.icon && <div className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">{props.icon}</div>}
      <Heading className="text-lg font-semibold">{props.title}</Heading>
      <p className="text-sm text-muted-foreground">{props.text}</p>
      <span className="rounded-full border px-2.5 py-0.5 text-xs text-muted-foreground">{t('soon.title')}</span>
    </section>
  )
}
