import type { FieldValues, Path, UseFormReturn } from 'react-hook-form'
import { isApiError } from '../../lib/api-client'

/**
 * Puts the server's field errors (VALIDATION_FAILED `fields`) on the form's fields. The server's
 * texts are English, so the field shows a generic translated message; the client checks the same
 * rules first, so this is rare.
 */
export function applyServerFieldErrors<T extends FieldValues>(form: UseFormReturn<T, any, any>, error: unknown) {
  if (!isApiError(error)) return
  for (const field of Object.keys(error.fields ?? {})) {
    if (field in form.getValues()) form.setError(field as Path<T>, { message: 'invalid' })
  }
}
