import { ChevronRight, FileSearch, Globe, LoaderCircle, Mail, Search, TriangleAlert, Wrench, type LucideIcon } from '../../../components/icons'
import * as Collapsible from '@radix-ui/react-collapsible'
import { useTranslation } from 'react-i18next'
import { callSummary, mcpToolOf, passagesOf, searchResultsOf } from '../lib/tool-data'
import type { ToolCallView } from '../lib/tool-parts'
import { ToolResultBody } from './tool-result-body'

const ICONS: Record<string, LucideIcon> = { internet_search: Search, website_content: Globe, source_query: FileSearch, send_email: Mail }

export type ToolCallState = 'running' | 'done' | 'failed' | 'interrupted'

/** Where a call stands: running while the reply streams without its result; interrupted if the reply ended first. */
export function toolCallState(call: ToolCallView, streaming: boolean): ToolCallState {
  if (call.result) return call.result.isError ? 'failed' : 'done'
  return streaming ? 'running' : 'interrupted'
}

/**
 * One tool call in a reply: the tool's name and what it was asked, its state, and its result
 * folded away until the user opens it. A failure shows its message at once.
 */
export function ToolCallCard({ call, streaming }: { call: ToolCallView; streaming: boolean }) {
  const { t } = useTranslation('tools')
  const state = toolCallState(call, streaming)
  const Icon = ICONS[call.name] ?? Wrench
  const summary = callSummary(call)
  const mcp = mcpToolOf(call)
  const { result } = call
  // A failure with a code is shown translated, its detail (written for the model) behind the toggle.
  const error = result?.isError ? (result.code ? t(result.code, { ns: 'errors', defaultValue: result.result }) : result.result) : null
  const foldable = !!result && (!result.isError || !!result.code)

  const head = (
    <>
      <Icon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
      <span className="shrink-0 font-medium">{mcp ? t('mcpName', mcp) : t(`names.${call.name}`, { defaultValue: call.name })}</span>
      {summary && <span className="min-w-0 truncate text-muted-foreground">{t('quoted', { text: summary })}</span>}
      <span className="ml-auto flex shrink-0 items-center gap-1.5 pl-2 text-xs text-muted-foreground">
        <StateLabel call={call} state={state} />
      </span>
    </>
  )

  return (
    <Collapsible.Root
      className="min-w-0 rounded-lg border bg-muted/30 text-sm"
      data-testid="tool-call"
      data-tool={call.name}
      data-state-kind={state}
      defaultOpen={false}
    >
      {foldable ? (
        <Collapsible.Trigger className="group/tool flex min-h-9 w-full items-center gap-2 rounded-lg px-3 py-1.5 text-left outline-none transition-colors hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring">
          {head}
          <ChevronRight aria-hidden className="size-4 shrink-0 text-muted-foreground transition-transform group-data-[state=open]/tool:rotate-90" />
        </Collapsible.Trigger>
      ) : (
        <div className="flex min-h-9 items-center gap-2 px-3 py-1.5">{head}</div>
      )}
      {error && (
        <p className="flex gap-2 border-t border-destructive/20 px-3 py-2 text-destructive dark:text-red-300" data-testid="tool-error">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span className="min-w-0 whitespace-pre-wrap break-words">{error}</span>
        </p>
      )}
      {foldable && (
        <Collapsible.Content className="border-t px-3 py-2.5">
          <ToolResultBody call={call} />
        </Collapsible.Content>
      )}
    </Collapsible.Root>
  )
}

function StateLabel({ call, state }: { call: ToolCallView; state: ToolCallState }) {
  const { t } = useTranslation('tools')
  if (state === 'running') {
    return (
      <>
        <LoaderCircle aria-hidden className="size-3.5 animate-spin" />
        <span role="status">{t('running')}</span>
      </>
    )
  }
  if (state === 'interrupted') return <span>{t('interrupted')}</span>
  if (state === 'failed') return <span className="text-destructive dark:text-red-300">{t('failed')}</span>
  const results = call.name === 'internet_search' ? searchResultsOf(call.result?.data) : null
  if (results) return <span>{t('results', { count: results.length })}</span>
  if (call.name === 'source_query') return <span>{t('passages', { count: passagesOf(call.result?.data).length })}</span>
  return <span>{t('done')}</span>
}
