import { zodResolver } from '@hookform/resolvers/zod'
import { Plus } from '../../../components/icons'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { useCreateEndpoint } from '../api'
import { ENDPOINT_SERVER_FIELDS, endpointSchema, type EndpointFormInput, type EndpointValues } from '../schemas'

export const ENDPOINT_NAME_ID = 'endpoint-name'

/** Adds an OpenAI-compatible endpoint; the key goes to the server once and is never shown again. */
export function EndpointForm() {
  const { t } = useTranslation('models')
  const create = useCreateEndpoint()
  const form = useForm<EndpointFormInput, unknown, EndpointValues>({
    resolver: zodResolver(endpointSchema),
    defaultValues: { name: '', baseUrl: '', apiKey: '' },
  })
  const { errors } = form.formState

  const submit = form.handleSubmit((values) =>
    create.mutate(
      { name: values.name, baseUrl: values.baseUrl, apiKey: values.apiKey || undefined },
      {
        onSuccess: (endpoint) => {
          toast.success(t('endpoints.added', { name: endpoint.name }))
          form.reset()
        },
        onError: (error) => {
          const code = isApiError(error) ? error.code : undefined
          const fields = isApiError(error) ? Object.keys(error.fields ?? {}).filter((f) => f in ENDPOINT_SERVER_FIELDS) : []
          // An address the server refuses (credentials in it, a private host in the cloud) says so at the field.
          for (const field of fields) {
            const message = code === 'INVALID_ENDPOINT_URL' ? code : ENDPOINT_SERVER_FIELDS[field]!
            form.setError(field as keyof EndpointFormInput, { message }, { shouldFocus: true })
          }
          if (fields.length === 0) toast.error(errorMessage(t, error))
        },
      },
    ),
  )

  return (
    <form noValidate onSubmit={submit} aria-labelledby="endpoint-form-title" className="grid gap-4 border-t bg-muted/20 px-5 py-4">
      <h3 id="endpoint-form-title" className="text-sm font-semibold">
        {t('endpoints.formTitle')}
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={ENDPOINT_NAME_ID} label={t('endpoints.name')} error={errors.name?.message}>
          <Input autoComplete="off" placeholder={t('endpoints.namePlaceholder')} {...fieldA11y(ENDPOINT_NAME_ID, errors.name?.message)} {...form.register('name')} />
        </FormField>
        <FormField id="endpoint-base-url" label={t('endpoints.baseUrl')} error={errors.baseUrl?.message}>
          <Input
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder={t('endpoints.baseUrlPlaceholder')}
            {...fieldA11y('endpoint-base-url', errors.baseUrl?.message)}
            {...form.register('baseUrl')}
          />
        </FormField>
        <FormField id="endpoint-api-key" label={t('endpoints.apiKey')} error={errors.apiKey?.message} hint={t('endpoints.apiKeyHint')}>
          <Input type="password" autoComplete="new-password" spellCheck={false} {...fieldA11y('endpoint-api-key', errors.apiKey?.message)} {...form.register('apiKey')} />
        </FormField>
        <div className="flex items-start sm:pt-[1.375rem]">
          <Button type="submit" variant="outline" disabled={create.isPending} className="w-full sm:w-auto">
            <Plus />
            {create.isPending ? t('common:loading') : t('endpoints.add')}
          </Button>
        </div>
      </div>
    </form>
  )
}
