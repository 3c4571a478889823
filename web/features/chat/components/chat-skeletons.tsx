import { Link } from '@tanstack/react-router'
import { MessageSquareOff } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { buttonVariants } from '../../../components/ui/button'
import { Skeleton } from '../../../components/ui/skeleton'

function HeaderSkeleton() {
  return (
    <div className="flex h-12 shrink-0 items-center justify-between gap-2 border-b px-3 sm:px-4">
      <Skeleton className="h-4 w-40" />
      <Skeleton className="h-6 w-28" />
    </div>
  )
}

function ComposerSkeleton() {
  return (
    <div className="mx-auto w-full max-w-3xl px-3 pb-3 sm:px-4 sm:pb-4">
      <Skeleton className="h-[88px] w-full rounded-2xl" />
    </div>
  )
}

/** /chat while its models load. */
export function NewChatSkeleton() {
  const { t } = useTranslation()
  return (
    <div className="flex h-full flex-col" role="status" aria-label={t('loading')}>
      <HeaderSkeleton />
      <div className="flex flex-1 flex-col items-center justify-center gap-3">
        <Skeleton className="size-11 rounded-2xl" />
        <Skeleton className="h-7 w-48" />
        <Skeleton className="h-4 w-64" />
      </div>
      <ComposerSkeleton />
    </div>
  )
}

/** A chat while it loads. */
export function ThreadSkeleton() {
  const { t } = useTranslation('chat')
  return (
    <div className="flex h-full flex-col" role="status" aria-label={t('thread.loading')}>
      <HeaderSkeleton />
      <div className="mx-auto grid w-full max-w-3xl flex-1 content-start gap-6 px-4 pt-6">
        <Skeleton className="ml-auto h-10 w-2/5 rounded-2xl" />
        <div className="grid gap-2">
          <Skeleton className="h-4 w-11/12" />
          <Skeleton className="h-4 w-4/5" />
          <Skeleton className="h-4 w-3/5" />
        </div>
      </div>
      <ComposerSkeleton />
    </div>
  )
}

/** A chat that does not exist (or is someone else's). */
/** A chat (or a shared chat, `code`) that is not there, or not the caller's to see. */
export function ThreadNotFound({ code = 'THREAD_NOT_FOUND' }: { code?: 'THREAD_NOT_FOUND' | 'SHARE_NOT_FOUND' }) {
  const { t } = useTranslation('chat')
  return (
    <div className="flex h-full flex-col items-center justify-center gap-3 p-8 text-center">
      <MessageSquareOff aria-hidden className="size-8 text-muted-foreground" />
      <h1 className="text-lg font-semibold">{t(`errors:${code}`)}</h1>
      <Link to="/chat" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
        {t('common:nav.newChat')}
      </Link>
    </div>
  )
}
