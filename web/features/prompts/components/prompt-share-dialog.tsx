import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '../../../components/ui/dialog'
import { collectionQueries } from '../../../lib/collection-queries'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { useSharePrompt, type Prompt } from '../api'

/**
 * The owner shares a prompt read-only with the whole organisation and/or chosen groups of it (the
 * same groups a collection is shared with); nothing chosen keeps it private.
 */
export function PromptShareDialog(props: { prompt: Prompt; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('prompts')
  const api = useApi()
  const groups = useQuery({ ...collectionQueries.shareTargets(api), enabled: props.open }).data?.groups ?? []
  const [organization, setOrganization] = useState(props.prompt.sharedWithOrganization)
  const [chosen, setChosen] = useState(props.prompt.groups.map((g) => g.id))
  const share = useSharePrompt()
  const toggle = (id: string, on: boolean) => setChosen((all) => (on ? [...all, id] : all.filter((g) => g !== id)))
  const save = () =>
    share.mutate(
      { id: props.prompt.id, organization, groupIds: chosen },
      {
        onSuccess: () => {
          toast.success(t('share.saved', { title: props.prompt.title }))
          props.onOpenChange(false)
        },
        onError: (error) => toast.error(t('share.failed'), { description: errorMessage(t, error) }),
      },
    )

  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent closeLabel={t('form.close')}>
        <DialogHeader title={t('share.title', { title: props.prompt.title })} description={t('share.description')} />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4 accent-primary" checked={organization} onChange={(e) => setOrganization(e.target.checked)} />
          {t('share.organization')}
        </label>
        {groups.length > 0 && (
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">{t('share.groups')}</legend>
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
            {t('share.cancel')}
          </Button>
          <Button disabled={share.isPending} onClick={save}>
            {t('share.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
