import type { Ref } from 'react'
import { MoreHorizontal } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { OnDemandTrigger } from '../../../lib/on-demand'
import { chatMenus } from './chat-menus-part'

/**
 * The "…" button of the chat header: share the chat in the organisation, download it as Markdown
 * or JSON, or print it (and so save it as PDF). Its menu is one of the chat's menus, loaded on
 * first use (decisions 0089 and 0132). `onOpen`: the menu opened (the share dialog's code is fetched then, ahead of a click on Share).
 */
export function ChatExportMenu(props: { threadId: string; onPrint: () => void; onShare: () => void; onOpen?: () => void; buttonRef?: Ref<HTMLButtonElement> }) {
  const { t } = useTranslation('chat')
  const trigger = (
    <button
      type="button"
      ref={props.buttonRef}
      aria-label={t('export.menu')}
      title={t('export.menu')}
      className="grid size-8 shrink-0 place-items-center rounded-md text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-accent [&_svg]:size-4"
    >
      <MoreHorizontal aria-hidden />
    </button>
  )
  return (
    <OnDemandTrigger
      part={chatMenus}
      opens="menu"
      trigger={trigger}
      render={(parts, triggerRef) => (
        <parts.ExportMenu trigger={trigger} triggerRef={triggerRef} threadId={props.threadId} onPrint={props.onPrint} onShare={props.onShare} onOpen={props.onOpen} />
      )}
    />
  )
}
