import { MoreHorizontal } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { PendingTrigger, useOnDemandTrigger } from '../../../lib/on-demand'
import { chatMenus } from './chat-menus-part'

/**
 * The "…" button of the chat header: share the chat in the organisation, download it as Markdown
 * or JSON, or print it (and so save it as PDF). Its menu is one of the chat's menus, loaded on
 * first use (decision 0089).
 */
export function ChatExportMenu(props: { threadId: string; onPrint: () => void; onShare: () => void }) {
  const { t } = useTranslation('chat')
  const { parts, ref, placeholder } = useOnDemandTrigger(chatMenus, 'menu')
  const trigger = (
    <button
      type="button"
      aria-label={t('export.menu')}
      title={t('export.menu')}
      className="grid size-8 shrink-0 place-items-center rounded-md text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-accent [&_svg]:size-4"
    >
      <MoreHorizontal aria-hidden />
    </button>
  )
  if (!parts)
    return (
      <PendingTrigger triggerRef={ref} placeholder={placeholder}>
        {trigger}
      </PendingTrigger>
    )
  return <parts.ExportMenu trigger={trigger} triggerRef={ref} threadId={props.threadId} onPrint={props.onPrint} onShare={props.onShare} />
}
