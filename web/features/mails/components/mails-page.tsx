import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Mail } from '../../../components/icons'
import { Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { RowsSkeleton } from '../../../components/rows-skeleton'
import { SectionCard } from '../../../components/section-card'
import { Badge } from '../../../components/ui/badge'
import { cn } from '../../../lib/cn'
import { useApi } from '../../../lib/use-api'
import { mailQueries, type OutboxMail } from '../api'
import { MailView } from './mail-view'

/** Admin Settings → Mails (development and demo only): the outbox, each mail rendered. */
export function MailsPage() {
  const { t } = useTranslation('mails')
  return (
    <SectionCard flush id="mails" title={t('title')} description={t('description')}>
      <Suspense fallback={<RowsSkeleton label={t('common:loading')} />}>
        <MailList />
      </Suspense>
    </SectionCard>
  )
}

export function MailsPageSkeleton() {
  const { t } = useTranslation('mails')
  return (
    <SectionCard flush id="mails" title={t('title')} description={t('description')}>
      <RowsSkeleton label={t('common:loading')} />
    </SectionCard>
  )
}

const STATUS_VARIANT = { logged: 'neutral', sent: 'success', failed: 'danger' } as const

function MailList() {
  const { t, i18n } = useTranslation('mails')
  const { data: mails } = useSuspenseQuery(mailQueries.outbox(useApi()))
  const [openId, setOpenId] = useState<string | undefined>(mails[0]?.id)
  const open = mails.find((m) => m.id === openId)
  if (!mails.length) {
    return (
      <div className="grid justify-items-start gap-3 px-4 py-6 sm:px-5">
        <p className="text-sm text-muted-foreground">{t('empty')}</p>
        <Link to="/admin-settings/users" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
          {t('inviteSomeone')}
        </Link>
      </div>
    )
  }
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })
  return (
    <div className="grid gap-0 md:grid-cols-[minmax(14rem,20rem)_1fr]">
      <ul aria-label={t('listLabel')} className="divide-y border-b md:border-r md:border-b-0">
        {mails.map((mail: OutboxMail) => (
          <li key={mail.id}>
            <button
              type="button"
              aria-current={mail.id === openId}
              onClick={() => setOpenId(mail.id)}
              className={cn('grid w-full gap-1 px-4 py-3 text-left hover:bg-muted/60 focus-visible:outline-2 focus-visible:outline-ring', mail.id === openId && 'bg-muted')}
            >
              <span className="truncate text-sm font-medium">{mail.subject}</span>
              <span className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                <span className="truncate">{mail.to}</span>
                <Badge variant={STATUS_VARIANT[mail.status]}>{t(`status.${mail.status}`)}</Badge>
              </span>
              <time dateTime={mail.createdAt} className="text-xs text-muted-foreground">
                {when.format(new Date(mail.createdAt))}
              </time>
            </button>
          </li>
        ))}
      </ul>
      {open && (
        <article aria-label={open.subject} className="grid content-start gap-3 p-4 sm:p-5">
          <header className="grid gap-1 text-sm">
            <h3 className="flex items-center gap-2 font-semibold">
              <Mail className="size-4" aria-hidden />
              {open.subject}
            </h3>
            <p className="text-muted-foreground">{t('to', { to: open.to })}</p>
          </header>
          <MailView mail={open} />
        </article>
      )}
    </div>
  )
}
