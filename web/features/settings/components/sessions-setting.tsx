import { useSuspenseQuery } from '@tanstack/react-query'
import { LogOut, Monitor, Smartphone, Tablet } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { confirm } from '../../../components/confirm-dialog'
import { IconAction } from '../../../components/icon-action'
import { LocalDate } from '../../../components/local-date'
import { SectionCard } from '../../../components/section-card'
import { toast } from '../../../components/toaster'
import { Badge } from '../../../components/ui/badge'
import { Button } from '../../../components/ui/button'
import { useApi } from '../../../lib/use-api'
import { sessionListQuery, useEndOtherSessions, useEndSession, type SignedInSession } from '../api'

const DEVICE_ICONS = { mobile: Smartphone, tablet: Tablet, desktop: Monitor, other: Monitor }

/** The browsers and devices the user is signed in with; each but this one can be signed out, or all of them at once. */
export function SessionsSetting() {
  const { t } = useTranslation('settings')
  const api = useApi()
  const sessions = useSuspenseQuery(sessionListQuery(api)).data
  const end = useEndSession()
  const endOthers = useEndOtherSessions()
  const others = sessions.filter((s) => !s.current).length

  const confirmEnd = (session: SignedInSession) =>
    confirm({
      title: t('sessions.endTitle'),
      description: t('sessions.endDescription', { device: describe(session) }),
      confirmLabel: t('sessions.endConfirm'),
      destructive: true,
      action: () => end.mutateAsync(session.id, { onSuccess: () => toast.success(t('sessions.ended')) }),
    })
  const confirmEndOthers = () =>
    confirm({
      title: t('sessions.endOthersTitle'),
      description: t('sessions.endOthersDescription', { count: others }),
      confirmLabel: t('sessions.endOthersConfirm'),
      destructive: true,
      action: () => endOthers.mutateAsync(undefined, { onSuccess: (r) => toast.success(t('sessions.endedOthers', { count: r.ended })) }),
    })
  const describe = (session: SignedInSession) =>
    session.browser && session.os
      ? t('sessions.browserOn', { browser: session.browser, os: session.os })
      : (session.browser ?? session.os ?? t('sessions.unknownDevice'))

  return (
    <SectionCard
      id="sessions"
      title={t('sessions.title')}
      description={t('sessions.hint')}
      flush
      action={
        others > 0 && (
          <Button variant="outline" onClick={confirmEndOthers}>
            <LogOut aria-hidden />
            {t('sessions.endOthers')}
          </Button>
        )
      }
    >
      <ul className="divide-y" aria-labelledby="sessions-title">
        {sessions.map((session) => {
          const Icon = DEVICE_ICONS[session.device]
          return (
            <li key={session.id} className="flex items-center gap-3 px-4 py-3 sm:px-5" data-testid="session-row">
              <Icon aria-hidden className="size-5 shrink-0 text-muted-foreground" />
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
                  <span className="font-medium">{describe(session)}</span>
                  {session.current && <Badge variant="success">{t('sessions.thisDevice')}</Badge>}
                </div>
                <div className="text-[13px] text-muted-foreground">
                  {session.address && <span className="[overflow-wrap:anywhere]">{session.address} · </span>}
                  {session.current ? (
                    t('sessions.activeNow')
                  ) : (
                    <>
                      {t('sessions.lastSeen')} <LocalDate iso={session.lastSeenAt} withTime />
                    </>
                  )}
                </div>
              </div>
              {!session.current && (
                <IconAction side="left" destructive label={t('sessions.end', { device: describe(session) })} onClick={() => confirmEnd(session)}>
                  <LogOut />
                </IconAction>
              )}
            </li>
          )
        })}
      </ul>
    </SectionCard>
  )
}
