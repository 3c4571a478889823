import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { FormError } from '../../../components/form-message'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '../../../components/ui/dialog'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { useCreateGroup, useRenameGroup, type Group } from '../api'
import { groupNameSchema, type GroupNameValues } from '../schemas'

/** Creates a group (`group` null) or renames one; open while `open`. */
export function GroupNameDialog(props: { open: boolean; group: Group | null; onClose: () => void }) {
  const { t } = useTranslation('groups')
  const create = useCreateGroup()
  const rename = useRenameGroup()
  const mutation = props.group ? rename : create
  const form = useForm<GroupNameValues>({ resolver: zodResolver(groupNameSchema), defaultValues: { name: '' } })
  const error = form.formState.errors.name?.message

  useEffect(() => {
    if (props.open) {
      form.reset({ name: props.group?.name ?? '' })
      create.reset()
      rename.reset()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.open, props.group])

  const submit = form.handleSubmit(({ name }) => {
    const done = {
      onSuccess: (group: Group) => {
        toast.success(t(props.group ? 'renamed' : 'created', { name: group.name }))
        props.onClose()
      },
      onError: (e: Error) => {
        if (isApiError(e) && (e.code === 'GROUP_NAME_TAKEN' || e.fields?.name)) form.setError('name', { message: e.code === 'GROUP_NAME_TAKEN' ? e.code : 'invalid' }, { shouldFocus: true })
      },
    }
    if (props.group) rename.mutate({ id: props.group.id, name }, done)
    else create.mutate(name, done)
  })
  const failure = mutation.error && !(isApiError(mutation.error) && (mutation.error.code === 'GROUP_NAME_TAKEN' || mutation.error.fields))

  return (
    <Dialog open={props.open} onOpenChange={(open) => !open && props.onClose()}>
      <DialogContent closeLabel={t('close')}>
        <DialogHeader title={t(props.group ? 'renameTitle' : 'createTitle')} description={t('nameDescription')} />
        <form className="grid gap-4" noValidate onSubmit={submit}>
          {failure && <FormError>{errorMessage(t, mutation.error)}</FormError>}
          <FormField id="group-name" label={t('name')} error={error}>
            <Input autoComplete="off" {...fieldA11y('group-name', error)} {...form.register('name')} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={props.onClose}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? t('common:loading') : t(props.group ? 'renameSubmit' : 'createSubmit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
