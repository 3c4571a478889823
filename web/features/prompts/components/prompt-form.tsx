import { zodResolver } from '@hookform/resolvers/zod'
import { useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { DialogFooter } from '../../../components/ui/dialog'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { Textarea } from '../../../components/ui/textarea'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { FormError } from '../../../components/form-message'
import { useCreatePrompt, useUpdatePrompt, type Prompt } from '../api'
import { promptVariables } from '../../../lib/fill-variables'
import { promptFieldKey, promptSchema, type PromptValues } from '../schemas'
import { VariableChips } from './variable-chips'

/** Title and content of a new prompt, or of `prompt` when it is given. */
export function PromptForm(props: { prompt?: Prompt; onSaved: (prompt: Prompt) => void; onCancel: () => void }) {
  const { t } = useTranslation('prompts')
  const create = useCreatePrompt()
  const update = useUpdatePrompt()
  const save = props.prompt ? update : create
  const form = useForm<PromptValues>({
    resolver: zodResolver(promptSchema),
    defaultValues: { title: props.prompt?.title ?? '', content: props.prompt?.content ?? '' },
  })
  const { errors } = form.formState
  const variables = promptVariables(useWatch({ control: form.control, name: 'content' }))

  const onError = (error: unknown) => {
    if (!isApiError(error)) return
    for (const [field, message] of Object.entries(error.fields ?? {})) {
      if (field === 'title' || field === 'content') form.setError(field, { message: promptFieldKey(message) })
    }
  }
  const submit = form.handleSubmit((values) => {
    save.reset()
    const options = { onSuccess: props.onSaved, onError }
    if (props.prompt) update.mutate({ id: props.prompt.id, ...values }, options)
    else create.mutate(values, options)
  })
  // Said above the fields only when no field carries it.
  const failure = save.error && !(isApiError(save.error) && save.error.fields)

  return (
    <form className="grid gap-4" noValidate onSubmit={submit}>
      {failure && <FormError>{errorMessage(t, save.error)}</FormError>}
      <FormField id="prompt-title" label={t('form.title')} error={errors.title?.message}>
        <Input autoComplete="off" placeholder={t('form.titlePlaceholder')} {...fieldA11y('prompt-title', errors.title?.message)} {...form.register('title')} />
      </FormField>
      <div className="grid gap-2">
        <FormField id="prompt-content" label={t('form.content')} error={errors.content?.message} hint={t('form.contentHint', { example: '{{topic}}' })}>
          <Textarea
            rows={8}
            placeholder={t('form.contentPlaceholder', { audience: '{{audience}}' })}
            className="max-h-[50dvh] min-h-40"
            {...fieldA11y('prompt-content', errors.content?.message)}
            {...form.register('content')}
          />
        </FormField>
        {variables.length > 0 && (
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1.5 text-[13px] text-muted-foreground">
            <span aria-hidden>{t('form.detected')}</span>
            <VariableChips names={variables} label={t('form.detected')} />
          </div>
        )}
      </div>
      <DialogFooter className="pt-1">
        <Button variant="outline" onClick={props.onCancel}>
          {t('common:cancel')}
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t('common:loading') : props.prompt ? t('form.saveChanges') : t('form.create')}
        </Button>
      </DialogFooter>
    </form>
  )
}
