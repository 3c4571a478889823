import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Label } from './label'

/**
 * A labelled field with its error. `error` is an i18n key (client validation) or a server
 * message; the input gets `aria-invalid` and `aria-describedby` from the caller via `id`.
 */
export function FormField(props: { id: string; label: ReactNode; error?: string; hint?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={props.id}>{props.label}</Label>
      {props.children}
      {props.error ? (
        <p id={`${props.id}-error`} role="alert" className="text-[13px] text-destructive">
          {t(props.error, { ns: ['validation', 'errors'], defaultValue: props.error })}
        </p>
      ) : props.hint ? (
        <p className="text-[13px] text-muted-foreground">{props.hint}</p>
      ) : null}
    </div>
  )
}

/** Props for an input inside a FormField that has (or may have) an error. */
export const fieldA11y = (id: string, error?: string) => ({
  id,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : undefined,
})
