import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { DialogFooter } from '../../../components/ui/dialog'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { NativeSelect } from '../../../components/ui/native-select'
import { RadioCard, RadioGroup } from '../../../components/ui/radio-group'
import { isApiError } from '../../../lib/api-client'
import { cn } from '../../../lib/cn'
import { errorMessage } from '../../../lib/error-message'
import { LANGUAGES, toLanguage } from '../../../lib/i18n'
import { useApi } from '../../../lib/use-api'
import { FormError } from '../../../components/form-message'
import { serverFieldKey } from '../../../lib/form-fields'
import { systemQueries } from '../../../lib/system'
import { ROLES, useCreateInvite, type Invite } from '../api'
import { inviteSchema, type InviteFormInput, type InviteValues } from '../schemas'

/** E-mail, role and the language of the mail; the mail goes out in the UI language unless changed. */
export function InviteForm(props: { onSent: (invite: Invite) => void; onCancel: () => void }) {
  const { t, i18n } = useTranslation('members')
  const create = useCreateInvite()
  // Billing exists only in the cloud (reference.md "Modes").
  const isCloud = useQuery(systemQueries.info(useApi())).data?.isCloud ?? false
  const form = useForm<InviteFormInput, unknown, InviteValues>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { email: '', role: undefined, locale: toLanguage(i18n.language) ?? 'de' },
  })
  const { errors } = form.formState

  const submit = form.handleSubmit((values) => {
    create.reset()
    create.mutate(values, {
      onSuccess: props.onSent,
      onError: (error) => {
        if (!isApiError(error)) return
        if (error.code === 'USER_EXISTS') form.setError('email', { message: error.code }, { shouldFocus: true })
        for (const [field, message] of Object.entries(error.fields ?? {})) {
          if (field in form.getValues()) form.setError(field as keyof InviteFormInput, { message: serverFieldKey(message) })
        }
      },
    })
  })
  // Said above the fields only when no field carries it.
  const failure = create.error && !(isApiError(create.error) && (create.error.code === 'USER_EXISTS' || create.error.fields))
  const noSeats = isApiError(create.error) && create.error.code === 'INVITE_NOT_POSSIBLE'

  return (
    <form className="grid gap-4" noValidate onSubmit={submit}>
      {failure && (
        <FormError>
          {errorMessage(t, create.error)}
          {noSeats && (
            <>
              {' '}
              {t('inviteDialog.noSeats')}{' '}
              <Link to="/admin-settings/billing" className="font-medium underline underline-offset-4">
                {t('inviteDialog.toBilling')}
              </Link>
            </>
          )}
        </FormError>
      )}
      <FormField id="invite-email" label={t('inviteDialog.email')} error={errors.email?.message}>
        <Input
          type="email"
          autoComplete="off"
          placeholder={t('inviteDialog.emailPlaceholder')}
          {...fieldA11y('invite-email', errors.email?.message)}
          {...form.register('email')}
        />
      </FormField>
      <div className="grid gap-1.5">
        <span id="invite-role-label" className="text-sm font-medium leading-none">
          {t('inviteDialog.role')}
        </span>
        <Controller
          control={form.control}
          name="role"
          render={({ field }) => (
            <RadioGroup
              ref={field.ref}
              value={field.value ?? ''}
              onValueChange={field.onChange}
              aria-labelledby="invite-role-label"
              aria-invalid={errors.role ? true : undefined}
              aria-describedby={errors.role ? 'invite-role-error' : undefined}
              className={cn('sm:grid-cols-2', errors.role && '[&>button]:border-destructive')}
            >
              {ROLES.map((role) => (
                <RadioCard key={role} value={role} className="items-start py-2.5">
                  <span className="grid gap-0.5">
                    <span className="font-medium">{t(`common:roles.${role}`)}</span>
                    <span className="text-[13px] leading-snug text-muted-foreground">{t(role === 'admin' && isCloud ? 'roleHints.adminCloud' : `roleHints.${role}`)}</span>
                  </span>
                </RadioCard>
              ))}
            </RadioGroup>
          )}
        />
        {errors.role?.message && (
          <p id="invite-role-error" role="alert" className="text-[13px] text-destructive">
            {t(errors.role.message, { ns: 'validation' })}
          </p>
        )}
      </div>
      <FormField id="invite-locale" label={t('inviteDialog.language')}>
        <NativeSelect id="invite-locale" {...form.register('locale')}>
          {LANGUAGES.map((lng) => (
            <option key={lng} value={lng}>
              {t(`languages.${lng}`)}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <DialogFooter className="pt-1">
        <Button variant="outline" onClick={props.onCancel}>
          {t('common:cancel')}
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? t('common:loading') : t('inviteDialog.submit')}
        </Button>
      </DialogFooter>
    </form>
  )
}
