import { useTranslation } from 'react-i18next'
import { Badge } from '../../../components/ui/badge'

const CAPABILITIES = ['charts', 'statistics', 'documents'] as const

/** The capabilities an agent will get (spec section 3): shown, each marked coming soon, none selectable yet. */
export function AgentCapabilities() {
  const { t } = useTranslation('agents')
  return (
    <fieldset disabled className="grid gap-2" aria-describedby="agent-capabilities-hint">
      <legend className="mb-2 text-sm font-medium leading-none">{t('capabilities.title')}</legend>
      <ul className="divide-y rounded-lg border bg-muted/30">
        {CAPABILITIES.map((key) => (
          <li key={key} data-testid="agent-capability">
            <label className="flex cursor-not-allowed items-start gap-2.5 px-3 py-2 text-sm">
              <input type="checkbox" disabled className="mt-0.5 size-4 shrink-0 rounded border-input accent-primary" />
              <span className="grid min-w-0 flex-1 gap-0.5">
                <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="font-medium text-muted-foreground">{t(`capabilities.${key}`)}</span>
                  <Badge variant="neutral">{t('capabilities.soon')}</Badge>
                </span>
                <span className="text-[13px] leading-snug text-muted-foreground">{t(`capabilities.${key}Hint`)}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      <p id="agent-capabilities-hint" className="text-[13px] text-muted-foreground">
        {t('capabilities.hint')}
      </p>
    </fieldset>
  )
}
