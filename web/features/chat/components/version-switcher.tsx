import { ChevronLeft, ChevronRight } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import type { Message } from '../api'
import { ActionButton } from './action-button'

type VersionSwitcherProps = {
  message: Message
  /** Shows another version; absent while a reply streams (the branch cannot change then). */
  onShow?: (messageId: string) => void
}

/** ‹ 2/3 › under a message that has versions (a regenerated reply, an edited message): steps through them. */
export function VersionSwitcher({ message, onShow }: VersionSwitcherProps) {
  const { t } = useTranslation('chat')
  const ids = message.siblingIds
  const index = ids.indexOf(message.id)
  if (ids.length < 2 || index === -1) return null
  const show = (at: number) => onShow?.(ids[at]!)
  return (
    <div role="group" aria-label={t('message.versions')} className="flex items-center text-xs tabular-nums text-muted-foreground" data-testid="version-switcher">
      <ActionButton label={t('message.previousVersion')} disabled={!onShow || index === 0} onClick={() => show(index - 1)}>
        <ChevronLeft aria-hidden />
      </ActionButton>
      <span aria-live="polite">{t('message.versionOf', { index: index + 1, count: ids.length })}</span>
      <ActionButton label={t('message.nextVersion')} disabled={!onShow || index === ids.length - 1} onClick={() => show(index + 1)}>
        <ChevronRight aria-hidden />
      </ActionButton>
    </div>
  )
}
