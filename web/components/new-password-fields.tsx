import type { UseFormRegisterReturn } from 'react-hook-form'
import { FormField, fieldA11y } from './ui/form-field'
import { Input } from './ui/input'

/**
 * A new password and its confirmation (sign-up, password reset, accepting an invitation), as the
 * form's `password` and `passwordConfirmation` fields.
 */
export function NewPasswordFields(props: {
  labels: { password: string; confirmation: string; hint: string }
  errors: { password?: string; passwordConfirmation?: string }
  register: (name: 'password' | 'passwordConfirmation') => UseFormRegisterReturn
  autoFocus?: boolean
}) {
  const { labels, errors } = props
  return (
    <>
      <FormField id="password" label={labels.password} error={errors.password} hint={labels.hint}>
        <Input type="password" autoComplete="new-password" autoFocus={props.autoFocus} {...fieldA11y('password', errors.password)} {...props.register('password')} />
      </FormField>
      <FormField id="passwordConfirmation" label={labels.confirmation} error={errors.passwordConfirmation}>
        <Input
          type="password"
          autoComplete="new-password"
          {...fieldA11y('passwordConfirmation', errors.passwordConfirmation)}
          {...props.register('passwordConfirmation')}
        />
      </FormField>
    </>
  )
}
