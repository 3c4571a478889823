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
import { useAddMcpServer } from '../api'
import { MCP_SERVER_FIELDS, mcpServerSchema, type McpServerFormInput, type McpServerValues } from '../schemas'

/** Adds an MCP server; token and header go to the server once, are stored encrypted and never shown again. */
export function McpServerForm() {
  const { t } = useTranslation('mcp')
  const add = useAddMcpServer()
  const form = useForm<McpServerFormInput, unknown, McpServerValues>({
    resolver: zodResolver(mcpServerSchema),
    defaultValues: { name: '', url: '', bearerToken: '', headerName: '', headerValue: '' },
  })
  const { errors } = form.formState

  const submit = form.handleSubmit((v) =>
    add.mutate(
      { name: v.name, url: v.url, bearerToken: v.bearerToken || undefined, headers: v.headerName ? [{ name: v.headerName, value: v.headerValue }] : undefined },
      {
        onSuccess: (server) => {
          toast.success(t('added', { name: server.name }))
          form.reset()
        },
        onError: (error) => {
          const code = isApiError(error) ? error.code : undefined
          const fields = isApiError(error) ? Object.keys(error.fields ?? {}).filter((f) => f in MCP_SERVER_FIELDS) : []
          for (const field of fields) {
            const [name, message] = MCP_SERVER_FIELDS[field]!
            const shown = code === 'INVALID_MCP_SERVER_URL' || code === 'MCP_SERVER_NAME_TAKEN' ? code : message
            form.setError(name, { message: shown }, { shouldFocus: true })
          }
          if (fields.length === 0) toast.error(errorMessage(t, error))
        },
      },
    ),
  )

  const field = (id: string, name: keyof McpServerFormInput, props: React.ComponentProps<typeof Input>, hint?: string) => (
    <FormField id={id} label={t(`form.${name}`)} error={errors[name]?.message} hint={hint}>
      <Input autoComplete="off" spellCheck={false} {...props} {...fieldA11y(id, errors[name]?.message)} {...form.register(name)} />
    </FormField>
  )

  return (
    <form noValidate onSubmit={submit} aria-labelledby="mcp-form-title" className="grid gap-4 border-t bg-muted/20 px-4 py-4 sm:px-5">
      <h3 id="mcp-form-title" className="text-sm font-semibold">
        {t('formTitle')}
      </h3>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {field('mcp-name', 'name', { placeholder: t('form.namePlaceholder') })}
        {field('mcp-url', 'url', { type: 'url', inputMode: 'url', placeholder: 'https://mcp.example.com/mcp' })}
        {field('mcp-token', 'bearerToken', { type: 'password', autoComplete: 'new-password' }, t('form.secretHint'))}
        <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)] gap-2">
          {field('mcp-header-name', 'headerName', { placeholder: 'X-Api-Key' })}
          {field('mcp-header-value', 'headerValue', { type: 'password', autoComplete: 'new-password' })}
        </div>
      </div>
      <div>
        <Button type="submit" variant="outline" disabled={add.isPending}>
          <Plus />
          {add.isPending ? t('common:loading') : t('add')}
        </Button>
      </div>
    </form>
  )
}
