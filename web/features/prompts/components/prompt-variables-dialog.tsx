import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '../../../components/ui/dialog'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { fillPromptVariables, type PromptToFill } from '../../../lib/fill-variables'
import { variablesSchema, type VariablesValues } from '../schemas'

/**
 * Asks for a value of each `{{variable}}` of `prompt` and hands back the filled-in text.
 * Open while `prompt` is set; the caller sets it back to null in both callbacks. `onSubmit`
 * runs once the dialog has closed and released focus, so the caller can focus its own field.
 */
export function PromptVariablesDialog(props: { prompt: PromptToFill | null; onSubmit: (text: string) => void; onCancel: () => void }) {
  const { t } = useTranslation('prompts')
  // The text of the submitted prompt, until the dialog has closed; a new prompt opens it again.
  const [filled, setFilled] = useState<{ prompt: PromptToFill; text: string } | null>(null)

  // Radix gives focus back to the opener here; after a submit the caller's onSubmit decides.
  const onCloseAutoFocus = (event: Event) => {
    if (!filled) return
    event.preventDefault()
    setFilled(null)
    props.onSubmit(filled.text)
  }
  const prompt = props.prompt
  return (
    <Dialog open={prompt !== null && filled?.prompt !== prompt} onOpenChange={(open) => !open && props.onCancel()}>
      <DialogContent closeLabel={t('variables.close')} onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader title={prompt?.title ?? t('variables.title')} description={t('variables.description')} />
        {prompt && <VariablesForm prompt={prompt} onSubmit={(text) => setFilled({ prompt, text })} onCancel={props.onCancel} />}
      </DialogContent>
    </Dialog>
  )
}

function VariablesForm(props: { prompt: PromptToFill; onSubmit: (text: string) => void; onCancel: () => void }) {
  const { t } = useTranslation('prompts')
  const { variables, content } = props.prompt
  const form = useForm<VariablesValues>({
    resolver: zodResolver(variablesSchema),
    defaultValues: { values: variables.map(() => ({ value: '' })) },
  })
  const errors = form.formState.errors.values

  const submit = form.handleSubmit(({ values }) =>
    props.onSubmit(fillPromptVariables(content, Object.fromEntries(variables.map((name, i) => [name, values[i]!.value])))),
  )

  return (
    // stopPropagation: the dialog is portalled, but React bubbles its submit to a form around the
    // component that opened it (the chat composer), which must not send.
    <form
      className="grid gap-4"
      noValidate
      onSubmit={(event) => {
        event.stopPropagation()
        void submit(event)
      }}
    >
      {variables.map((name, i) => {
        const id = `prompt-variable-${i}`
        const error = errors?.[i]?.value?.message && t('variables.required', { name })
        return (
          <FormField key={name} id={id} label={name} error={error || undefined}>
            <Input autoComplete="off" autoFocus={i === 0} {...fieldA11y(id, error || undefined)} {...form.register(`values.${i}.value`)} />
          </FormField>
        )
      })}
      <DialogFooter className="pt-1">
        <Button variant="outline" onClick={props.onCancel}>
          {t('common:cancel')}
        </Button>
        <Button type="submit">{t('variables.submit')}</Button>
      </DialogFooter>
    </form>
  )
}
