import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import { Download, FileJson, FileText, MoreHorizontal, Printer, Share2 } from '../../../components/icons'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { pickerItem } from './picker-styles'

const exportUrl = (threadId: string, format: 'markdown' | 'json') => `/api/threads/${encodeURIComponent(threadId)}/export?format=${format}`

const item = `${pickerItem} items-center pr-3 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted-foreground`

/** The "…" menu of the chat header: share the chat in the organisation, download it as Markdown or JSON, or print it (and so save it as PDF). */
export function ChatExportMenu(props: { threadId: string; onPrint: () => void; onShare: () => void }) {
  const { t } = useTranslation('chat')
  const download = (format: 'markdown' | 'json', icon: ReactNode, label: string) => (
    <DropdownMenu.Item asChild className={item}>
      {/* The server names the file (Content-Disposition); the browser downloads it with the session cookie. */}
      <a href={exportUrl(props.threadId, format)} download data-testid={`export-${format}`}>
        {icon}
        {label}
      </a>
    </DropdownMenu.Item>
  )
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={t('export.menu')}
        title={t('export.menu')}
        className="grid size-8 shrink-0 place-items-center rounded-md text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-accent [&_svg]:size-4"
      >
        <MoreHorizontal aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className="z-50 min-w-52 rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg">
          <DropdownMenu.Item onSelect={props.onShare} className={item}>
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
          <DropdownMenu.Item onSelect={props.onPrint} className={item}>
            <Printer aria-hidden />
            {t('export.print')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
