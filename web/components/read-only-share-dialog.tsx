import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from './ui/button'
import { Dialog, DialogContent, DialogFooter, DialogHeader } from './ui/dialog'
import { collectionQueries } from '../lib/collection-queries'
import { useApi } from '../lib/use-api'

export type ReadOnlySharing = { organization: boolean; groupIds: string[] }

/**
 * The owner shares a prompt or an agent read-only with the whole organisation and/or chosen groups
 * of it (the same groups a collection is shared with); nothing chosen keeps it private.
 */
export function ReadOnlyShareDialog(props: {
  title: string
  description: string
  current: { sharedWithOrganization: boolean; groups: Array<{ id: string }> }
  pending: boolean
  onSave: (sharing: ReadOnlySharing) => void
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  const api = useApi()
  const groups = useQuery({ ...collectionQueries.shareTargets(api), enabled: props.open }).data?.groups ?? []
  const [organization, setOrganization] = useState(props.current.sharedWithOrganization)
  const [chosen, setChosen] = useState(props.current.groups.map((g) => g.id))
  const toggle = (id: string, on: boolean) => setChosen((all) => (on ? [...all, id] : all.filter((g) => g !== id)))

  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent closeLabel={t('readOnlyShare.close')}>
        <DialogHeader title={props.title} description={props.description} />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4 accent-primary" checked={organization} onChange={(e) => setOrganization(e.target.checked)} />
          {t('readOnlyShare.organization')}
        </label>
        {groups.length > 0 && (
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">{t('readOnlyShare.groups')}</legend>
            {groups.map((g) => (
              <label key={g.id} className="flex items-center gap-2 text-sm">
                <input type="checkbox" className="size-4 accent-primary" checked={chosen.includes(g.id)} onChange={(e) => toggle(g.id, e.target.checked)} />
                <span className="[overflow-wrap:anywhere]">{g.name}</span>
              </label>
            ))}
          </fieldset>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => props.onOpenChange(false)}>
            {t('cancel')}
          </Button>
          <Button disabled={props.pending} onClick={() => props.onSave({ organization, groupIds: chosen })}>
            {t('save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
