import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { adoptAccountLanguage } from '../../../lib/i18n'
import { useApi } from '../../../lib/use-api'
import { sessionQueries, signOut } from '../../../lib/session'
import { FormError } from '../../../components/form-message'
import { serverFieldKey } from '../../../lib/form-fields'
import { membersApi, type InvitePreview } from '../api'
import { acceptInviteSchema, type AcceptInviteValues } from '../schemas'
import { NewPasswordFields } from '../../../components/new-password-fields'

/** Name and password for the invited address; success signs the new member in and opens the chat. */
export function AcceptInviteForm(props: { token: string; invite: InvitePreview }) {
  const { t, i18n } = useTranslation('invitation')
  const api = useApi()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const form = useForm<AcceptInviteValues>({
    resolver: zodResolver(acceptInviteSchema),
    defaultValues: { name: '', password: '', passwordConfirmation: '' },
  })
  const accept = useMutation({
    mutationFn: (values: AcceptInviteValues) => membersApi.acceptInvite(api, { token: props.token, ...values }),
    onSuccess: async (me) => {
      queryClient.removeQueries({ queryKey: ['invite-preview'] })
      queryClient.setQueryData(sessionQueries.me(api).queryKey, me)
      await adoptAccountLanguage(i18n, me.locale)
      await navigate({ to: '/chat' })
    },
    onError: (error) => {
      for (const [field, message] of Object.entries((isApiError(error) && error.fields) || {})) {
        if (field in form.getValues()) form.setError(field as keyof AcceptInviteValues, { message: serverFieldKey(message) })
      }
    },
  })
  const leave = useMutation({
    mutationFn: () => signOut(api),
    // A fresh page load: nothing of the other user's session stays in memory.
    onSuccess: () => window.location.reload(),
  })
  const { errors } = form.formState
  const code = isApiError(accept.error) ? accept.error.code : undefined

  return (
    // method=post: a submit before hydration must not put the password into the URL.
    <form
      method="post"
      className="grid gap-4"
      noValidate
      onSubmit={form.handleSubmit((values) => {
        accept.reset()
        accept.mutate(values)
      })}
    >
      {accept.error && !(isApiError(accept.error) && accept.error.fields) && (
        <FormError>
          {errorMessage(t, accept.error)}
          {code === 'SIGNED_IN_AS_OTHER_USER' && (
            <Button
              variant="outline"
              size="sm"
              className="mt-2 flex"
              disabled={leave.isPending}
              onClick={() => leave.mutate()}
            >
              {t('signOut')}
            </Button>
          )}
        </FormError>
      )}
      <FormField id="invite-email" label={t('email')} hint={t('joinAs', { role: t(`common:roles.${props.invite.role}`) })}>
        <Input id="invite-email" type="email" value={props.invite.email} readOnly autoComplete="username" className="bg-muted/50 text-muted-foreground" />
      </FormField>
      <FormField id="name" label={t('name')} error={errors.name?.message}>
        <Input autoComplete="name" autoFocus {...fieldA11y('name', errors.name?.message)} {...form.register('name')} />
      </FormField>
      <NewPasswordFields
        labels={{ password: t('password'), confirmation: t('passwordConfirmation'), hint: t('passwordHint') }}
        errors={{ password: errors.password?.message, passwordConfirmation: errors.passwordConfirmation?.message }}
        register={(name) => form.register(name)}
      />
      <Button type="submit" disabled={accept.isPending}>
        {accept.isPending ? t('common:loading') : t('submit')}
      </Button>
    </form>
  )
}
