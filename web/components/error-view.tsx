import type { ErrorComponentProps } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../lib/api-client'
import { Button } from './ui/button'

/** The generic error view: 'Something went wrong!' with a Show Error / Hide Error toggle. */
export function ErrorView({ error, reset }: Partial<ErrorComponentProps> & { error: unknown }) {
  const { t } = useTranslation()
  const [shown, setShown] = useState(false)
  const detail = isApiError(error)
    ? `${error.code} (${error.status}): ${t(error.code, { ns: 'errors', defaultValue: error.message })}`
    : error instanceof Error
      ? error.message
      : String(error)
  return (
    <div role="alert" className="mx-auto flex max-w-lg flex-col items-start gap-3 p-8">
      <h1 className="text-lg font-semibold">{t('error.title')}</h1>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" onClick={() => setShown((s) => !s)} aria-expanded={shown}>
          {shown ? t('error.hide') : t('error.show')}
        </Button>
        {reset && (
          <Button variant="ghost" size="sm" onClick={reset}>
            {t('error.retry')}
          </Button>
        )}
      </div>
      {shown && <pre className="w-full overflow-auto rounded-md bg-muted p-3 text-xs">{detail}</pre>}
    </div>
  )
}
