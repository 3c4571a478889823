import { useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogHeader } from '../../../components/ui/dialog'
import { Input } from '../../../components/ui/input'
import { Label } from '../../../components/ui/label'
import { Textarea } from '../../../components/ui/textarea'
import { errorMessage } from '../../../lib/error-message'

export type CollectionDetails = { name: string; description: string | null }

/** A collection's name and description: for a new one, or changed by its owner or an editor. */
export function CollectionDialog(props: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description: string
  submitLabel: string
  initial?: CollectionDetails
  pending: boolean
  error: unknown
  onSubmit: (details: CollectionDetails) => void
}) {
  const { t } = useTranslation('knowledge')
  const [name, setName] = useState(props.initial?.name ?? '')
  const [description, setDescription] = useState(props.initial?.description ?? '')
  // Opened again, the fields start from what the collection is now.
  useEffect(() => {
    if (!props.open) return
    setName(props.initial?.name ?? '')
    setDescription(props.initial?.description ?? '')
  }, [props.open, props.initial?.name, props.initial?.description])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    props.onSubmit({ name, description: description.trim() ? description : null })
  }
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent closeLabel={t('close')}>
        <DialogHeader title={props.title} description={props.description} />
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor="collection-name">{t('fields.name')}</Label>
            <Input id="collection-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={120} required autoFocus />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="collection-description">{t('fields.description')}</Label>
            <Textarea id="collection-description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={1000} rows={3} />
          </div>
          {props.error != null && (
            <p role="alert" className="text-sm text-destructive">
              {errorMessage(t, props.error)}
            </p>
          )}
          <Button type="submit" disabled={props.pending || !name.trim()}>
            {props.submitLabel}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  )
}
