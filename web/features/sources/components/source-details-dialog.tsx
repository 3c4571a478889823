import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod/mini'
import { FormError } from '../../../components/form-message'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '../../../components/ui/dialog'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { Textarea } from '../../../components/ui/textarea'
import { errorMessage } from '../../../lib/error-message'
import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from '../../../../src/api/sources/limits'
import { useUpdateSource, type Source } from '../api'

// Messages are i18n keys of the `validation` namespace.
const detailsSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'nameRequired'), z.maxLength(MAX_NAME_LENGTH, 'tooLong')),
  description: z.string().check(z.trim(), z.maxLength(MAX_DESCRIPTION_LENGTH, 'tooLong')),
})
type DetailsValues = z.infer<typeof detailsSchema>

type Props = { threadId: string; source: Source; open: boolean; onOpenChange: (open: boolean) => void }

/** A file's name and description, which the model is told with it; the form starts from the saved values at every opening. */
export function SourceDetailsDialog(props: Props) {
  const { t } = useTranslation('sources')
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent closeLabel={t('details.close')}>
        <DialogHeader title={t('details.title')} description={t('details.description', { fileName: props.source.fileName })} />
        <DetailsForm {...props} onDone={() => props.onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  )
}

function DetailsForm(props: Props & { onDone: () => void }) {
  const { t } = useTranslation('sources')
  const update = useUpdateSource(props.threadId)
  const form = useForm<DetailsValues>({
    resolver: zodResolver(detailsSchema),
    defaultValues: { name: props.source.name, description: props.source.description ?? '' },
  })
  const { errors } = form.formState
  const submit = form.handleSubmit((values) =>
    update.mutate({ sourceId: props.source.id, name: values.name, description: values.description || null }, { onSuccess: props.onDone }),
  )
  return (
    <form className="grid gap-4" noValidate onSubmit={submit}>
      {update.error && <FormError>{errorMessage(t, update.error)}</FormError>}
      <FormField id="source-name" label={t('details.name')} error={errors.name?.message}>
        <Input {...fieldA11y('source-name', errors.name?.message)} {...form.register('name')} />
      </FormField>
      <FormField id="source-description" label={t('details.descriptionField')} hint={t('details.descriptionHint')} error={errors.description?.message}>
        <Textarea {...fieldA11y('source-description', errors.description?.message)} {...form.register('description')} />
      </FormField>
      <DialogFooter>
        <Button variant="outline" onClick={props.onDone}>
          {t('common:cancel')}
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? t('common:loading') : t('details.save')}
        </Button>
      </DialogFooter>
    </form>
  )
}
