import { zodResolver } from '@hookform/resolvers/zod'
import { Plus } from '../../../components/icons'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { ShownOncePanel } from '../../../components/shown-once-panel'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { NativeSelect } from '../../../components/ui/native-select'
import { errorMessage } from '../../../lib/error-message'
import { useCreateApiKey, type CreatedApiKey } from '../api'
import { createApiKeySchema, EXPIRY_CHOICES, type CreateApiKeyValues } from '../schemas'

/** Name and expiry of a new key; once made, the key itself, shown this once. */
export function CreateApiKey(props: { disabled?: boolean }) {
  const { t } = useTranslation('apiKeys')
  const create = useCreateApiKey()
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const form = useForm<CreateApiKeyValues>({ resolver: zodResolver(createApiKeySchema), defaultValues: { name: '', expiry: '90' } })
  const { errors } = form.formState

  const submit = form.handleSubmit((values) =>
    create.mutate(
      { name: values.name, expiresInDays: values.expiry === 'never' ? null : Number(values.expiry) },
      {
        onSuccess: (key) => {
          form.reset()
          setCreated(key)
        },
      },
    ),
  )

  if (created) return <NewKeyPanel created={created} onDone={() => setCreated(null)} />
  return (
    <form className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-start" noValidate onSubmit={submit} aria-label={t('create')}>
      {create.error && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive sm:col-span-3">
          {errorMessage(t, create.error)}
        </p>
      )}
      <FormField id="api-key-name" label={t('name')} error={errors.name?.message}>
        <Input placeholder={t('namePlaceholder')} disabled={props.disabled} {...fieldA11y('api-key-name', errors.name?.message)} {...form.register('name')} />
      </FormField>
      <FormField id="api-key-expiry" label={t('expiry')}>
        <NativeSelect id="api-key-expiry" disabled={props.disabled} {...form.register('expiry')}>
          {EXPIRY_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {choice === 'never' ? t('expiryNever') : t('expiryDays', { count: Number(choice) })}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <Button type="submit" className="sm:mt-[1.375rem]" disabled={props.disabled || create.isPending}>
        <Plus />
        {t('create')}
      </Button>
    </form>
  )
}

function NewKeyPanel(props: { created: CreatedApiKey; onDone: () => void }) {
  const { t } = useTranslation('apiKeys')
  return (
    <ShownOncePanel
      title={t('createdTitle', { name: props.created.name })}
      text={t('createdText')}
      value={props.created.key}
      label={t('newKey')}
      testId="new-api-key"
      labels={{ copy: t('copy'), copied: t('copied'), copyFailed: t('copyFailed'), done: t('done') }}
      onDone={props.onDone}
    />
  )
}
