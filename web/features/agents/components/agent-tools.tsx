import { useQuery } from '@tanstack/react-query'
import { useController, type Control } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { AGENT_TOOLS } from '../../../../src/api/agents/limits'
import { collectionQueries } from '../../../lib/collection-queries'
import { useApi } from '../../../lib/use-api'
import type { Agent } from '../api'
import type { AgentValues } from '../schemas'

type Choice = { value: string; label: string; hint: string }

/** A list of checkboxes that edits an array field of the agent form (its values in order of the list). */
function ChoiceList(props: { control: Control<AgentValues>; name: 'tools' | 'collectionIds'; legend: string; hint: string; choices: Choice[]; error?: string; empty?: string }) {
  const { field } = useController({ control: props.control, name: props.name })
  const hintId = `agent-${props.name}-hint`
  const toggle = (value: string, on: boolean) =>
    field.onChange(props.choices.map((c) => c.value).filter((v) => (v === value ? on : field.value.includes(v))))
  return (
    <fieldset className="grid gap-2" aria-describedby={hintId} data-testid={`agent-${props.name}`}>
      <legend className="mb-2 text-sm font-medium leading-none">{props.legend}</legend>
      {props.choices.length ? (
        <ul className="divide-y rounded-lg border">
          {props.choices.map((c, i) => (
            <li key={c.value} className="grid gap-0.5 px-3 py-2">
              <label className="flex cursor-pointer items-start gap-2.5 text-sm">
                <input
                  type="checkbox"
                  ref={i === 0 ? field.ref : undefined}
                  checked={field.value.includes(c.value)}
                  onChange={(e) => toggle(c.value, e.target.checked)}
                  onBlur={field.onBlur}
                  aria-describedby={`${hintId}-${i}`}
                  className="mt-0.5 size-4 shrink-0 rounded border-input accent-primary"
                />
                <span className="min-w-0 flex-1 truncate font-medium">{c.label}</span>
              </label>
              <p id={`${hintId}-${i}`} className="pl-6.5 text-[13px] leading-snug text-muted-foreground">
                {c.hint}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="rounded-lg border px-3 py-2 text-sm text-muted-foreground">{props.empty}</p>
      )}
      <p id={hintId} className="text-[13px] text-muted-foreground">
        {props.hint}
      </p>
      {props.error && (
        <p role="alert" className="text-[13px] font-medium text-destructive">
          {props.error}
        </p>
      )}
    </fieldset>
  )
}

/** The built-in tools chats with the agent may offer, and (read-only) the MCP tools an admin enabled for it. */
export function AgentTools(props: { control: Control<AgentValues>; mcpTools: Agent['mcpTools'] }) {
  const { t } = useTranslation('agents')
  const choices = AGENT_TOOLS.map((name) => ({ value: name, label: t(`tools.${name}`), hint: t(`tools.${name}Hint`) }))
  return (
    <>
      <ChoiceList control={props.control} name="tools" legend={t('tools.title')} hint={t('tools.hint')} choices={choices} />
      {props.mcpTools.length > 0 && (
        <section className="grid gap-2" aria-labelledby="agent-mcp-tools">
          <h3 id="agent-mcp-tools" className="text-sm font-medium leading-none">
            {t('tools.mcpTitle')}
          </h3>
          <ul className="divide-y rounded-lg border bg-muted/30 text-sm" data-testid="agent-mcp-tools">
            {props.mcpTools.map((m) => (
              <li key={`${m.server}/${m.tool}`} className="truncate px-3 py-2">
                {t('tools.mcpTool', { tool: m.tool, server: m.server })}
              </li>
            ))}
          </ul>
          <p className="text-[13px] text-muted-foreground">{t('tools.mcpHint')}</p>
        </section>
      )}
    </>
  )
}

/** The knowledge collections (of those the user may read) every chat with the agent searches. */
export function AgentCollections(props: { control: Control<AgentValues>; error?: string }) {
  const { t } = useTranslation('agents')
  const api = useApi()
  const list = useQuery(collectionQueries.list(api)).data
  if (!list) return null
  const choices = list.map((c) => ({ value: c.id, label: c.name, hint: t('collections.files', { count: c.readyFiles }) }))
  return (
    <ChoiceList
      control={props.control}
      name="collectionIds"
      legend={t('collections.title')}
      hint={t('collections.hint')}
      choices={choices}
      error={props.error && t(props.error)}
      empty={t('collections.none')}
    />
  )
}
