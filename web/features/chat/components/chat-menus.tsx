import { Link } from '@tanstack/react-router'
import { Download, FileJson, FileText, ListChecks, Pencil, Pin, PinOff, Printer, Settings2, Share2, Trash2 } from '../../../components/icons'
import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import type { ReactElement, ReactNode, Ref } from 'react'
import { useTranslation } from 'react-i18next'
import type { AgentView as Agent } from '../../../../src/api/agents/schema'
import type { PermittedModel } from '../../../../src/api/models/schema'
import { cn } from '../../../lib/cn'
import { providerName } from '../../../lib/provider-name'
import { PickerMenuContent, PickerRadioItem } from './picker-menu'
import { pickerItem } from './picker-styles'

/**
 * The chat's menus (Radix DropdownMenu), loaded when one of their buttons is first hovered, focused
 * or pressed (decision 0089): each gets its button, rendered by the component that shows it.
 */
/** What a chat's menu in the sidebar does. */
export type ChatItemAction = 'rename' | 'pin' | 'unpin' | 'select' | 'delete'

type MenuOf<P> = P & { trigger: ReactElement; triggerRef: Ref<HTMLElement> }

function Trigger(props: { trigger: ReactElement; triggerRef: Ref<HTMLElement> }) {
  return (
    <DropdownMenu.Trigger asChild ref={props.triggerRef as Ref<HTMLButtonElement>}>
      {props.trigger}
    </DropdownMenu.Trigger>
  )
}

export function ModelMenu(props: MenuOf<{ models: PermittedModel[]; value: PermittedModel | null; onChange: (model: PermittedModel) => void }>) {
  const { t } = useTranslation('chat')
  return (
    <DropdownMenu.Root>
      <Trigger trigger={props.trigger} triggerRef={props.triggerRef} />
      <PickerMenuContent label={t('model.choose')}>
        <DropdownMenu.RadioGroup
          value={props.value?.id ?? ''}
          onValueChange={(id) => {
            const model = props.models.find((m) => m.id === id)
            if (model) props.onChange(model)
          }}
        >
          {props.models.map((model) => (
            <PickerRadioItem key={model.id} value={model.id}>
              <span className="grid min-w-0">
                <span className="flex items-center gap-1.5">
                  <span className="truncate font-medium">{model.displayName}</span>
                  {model.isOrganizationDefault && (
                    <span className="shrink-0 rounded-full border px-1.5 text-[11px] leading-4 text-muted-foreground">{t('model.default')}</span>
                  )}
                </span>
                <span className="truncate text-xs text-muted-foreground">
                  {providerName(t, model.providerId, model.providerName)} · {t(`regions.${model.region}`)}
                </span>
              </span>
            </PickerRadioItem>
          ))}
        </DropdownMenu.RadioGroup>
      </PickerMenuContent>
    </DropdownMenu.Root>
  )
}

/** The radio value of "No agent" (agent ids are UUIDs). */
const NONE = 'none'

export function AgentMenu(props: MenuOf<{ agents: Agent[]; value: { id: string } | null; onChange: (agentId: string | null) => void }>) {
  const { t } = useTranslation('chat')
  return (
    <DropdownMenu.Root>
      <Trigger trigger={props.trigger} triggerRef={props.triggerRef} />
      <PickerMenuContent label={t('agent.choose')}>
        <DropdownMenu.RadioGroup value={props.value?.id ?? NONE} onValueChange={(id) => props.onChange(id === NONE ? null : id)}>
          <PickerRadioItem value={NONE}>
            <span className="grid min-w-0">
              <span className="truncate font-medium">{t('agent.none')}</span>
              <span className="text-xs text-muted-foreground">{t('agent.noneHint')}</span>
            </span>
          </PickerRadioItem>
          {props.agents.map((agent) => (
            <PickerRadioItem key={agent.id} value={agent.id} disabled={!agent.available && agent.id !== props.value?.id}>
              <span className="grid min-w-0">
                <span className="truncate font-medium">{agent.name}</span>
                <span className="truncate text-xs text-muted-foreground">
                  {agent.available && agent.model ? agent.model.displayName : t('agent.unavailable')}
                </span>
              </span>
            </PickerRadioItem>
          ))}
        </DropdownMenu.RadioGroup>
        {props.agents.length === 0 && <p className="px-2 py-1.5 text-sm text-muted-foreground">{t('agent.empty')}</p>}
        <DropdownMenu.Separator className="-mx-1 my-1 h-px bg-border" />
        <DropdownMenu.Item asChild className={cn(pickerItem, 'items-center')}>
          <Link to="/agents">
            <Settings2 aria-hidden className="size-4 shrink-0 text-muted-foreground" />
            {t('agent.manage')}
          </Link>
        </DropdownMenu.Item>
      </PickerMenuContent>
    </DropdownMenu.Root>
  )
}

export function ChatItemMenuPart(props: MenuOf<{ pinned: boolean; onAction: (action: ChatItemAction) => void; keepFocus: () => boolean }>) {
  const { t } = useTranslation('chat')
  const item = (action: ChatItemAction, icon: ReactNode, label: string, destructive = false) => (
    <DropdownMenu.Item
      onSelect={() => props.onAction(action)}
      className={`${pickerItem} items-center pr-3 [&_svg]:size-4 [&_svg]:shrink-0 ${destructive ? 'text-destructive data-[highlighted]:text-destructive' : ''}`}
    >
      {icon}
      {label}
    </DropdownMenu.Item>
  )
  return (
    <DropdownMenu.Root modal={false}>
      <Trigger trigger={props.trigger} triggerRef={props.triggerRef} />
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={4}
          // Renaming puts a field where the chat's link was: focus stays in it, not on this button.
          onCloseAutoFocus={(e) => props.keepFocus() && e.preventDefault()}
          className="z-50 min-w-44 rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
        >
          {item('rename', <Pencil aria-hidden />, t('actions.rename'))}
          {props.pinned ? item('unpin', <PinOff aria-hidden />, t('actions.unpin')) : item('pin', <Pin aria-hidden />, t('actions.pin'))}
          {item('select', <ListChecks aria-hidden />, t('actions.select'))}
          <DropdownMenu.Separator className="-mx-1 my-1 h-px bg-border" />
          {item('delete', <Trash2 aria-hidden />, t('actions.delete'), true)}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}

const exportUrl = (threadId: string, format: 'markdown' | 'json') => `/api/threads/${encodeURIComponent(threadId)}/export?format=${format}`

const exportItem = `${pickerItem} items-center pr-3 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted-foreground`

/** The "…" menu of the chat header (chat-export-menu.tsx): share, download as Markdown or JSON, print. */
export function ExportMenu(props: MenuOf<{ threadId: string; onPrint: () => void; onShare: () => void; onOpen?: () => void }>) {
  const { t } = useTranslation('chat')
  const download = (format: 'markdown' | 'json', icon: ReactNode, label: string) => (
    <DropdownMenu.Item asChild className={exportItem}>
      {/* The server names the file (Content-Disposition); the browser downloads it with the session cookie. */}
      <a href={exportUrl(props.threadId, format)} download data-testid={`export-${format}`}>
        {icon}
        {label}
      </a>
    </DropdownMenu.Item>
  )
  return (
    <DropdownMenu.Root modal={false} onOpenChange={(open) => open && props.onOpen?.()}>
      <Trigger trigger={props.trigger} triggerRef={props.triggerRef} />
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className="z-50 min-w-52 rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg">
          <DropdownMenu.Item onSelect={props.onShare} className={exportItem}>
            <Share2 aria-hidden />
            {t('share.menu')}
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="-mx-1 my-1 h-px bg-border" />
          <DropdownMenu.Label className="flex items-center gap-1.5 px-2 pb-1 pt-1.5 text-xs font-medium text-muted-foreground">
            <Download aria-hidden className="size-3.5" />
            {t('export.title')}
          </DropdownMenu.Label>
          {download('markdown', <FileText aria-hidden />, t('export.markdown'))}
          {download('json', <FileJson aria-hidden />, t('export.json'))}
          <DropdownMenu.Separator className="-mx-1 my-1 h-px bg-border" />
          <DropdownMenu.Item onSelect={props.onPrint} className={exportItem}>
            <Printer aria-hidden />
            {t('export.print')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
