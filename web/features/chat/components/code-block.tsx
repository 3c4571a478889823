import { Check, Copy } from '../../../components/icons'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useCopy } from '../hooks/use-copy'

/** A fenced code block: its language, a copy button, and the (highlighted) code scrolling sideways. */
export function CodeBlock(props: { language: string | null; code: string; children: ReactNode }) {
  const { t } = useTranslation('chat')
  const { copied, copy } = useCopy()
  return (
    <div className="my-3 overflow-hidden first:mt-0 last:mb-0 rounded-lg border bg-muted/40" data-testid="code-block">
      <div className="flex h-8 items-center justify-between border-b bg-muted/60 pl-3 pr-1 text-xs text-muted-foreground">
        <span className="font-mono">{props.language ?? ''}</span>
        <button
          type="button"
          onClick={() => void copy(props.code)}
          className="inline-flex h-6 items-center gap-1 rounded px-1.5 outline-none transition-colors hover:bg-background hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-3.5"
        >
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          <span aria-live="polite">{copied ? t('markdown.copied') : t('markdown.copyCode')}</span>
        </button>
      </div>
      <pre className="hljs overflow-x-auto p-3 font-mono text-[13px] leading-relaxed [&>code]:bg-transparent [&>code]:p-0 [&>code]:text-[13px]">
        {props.children}
      </pre>
    </div>
  )
}
