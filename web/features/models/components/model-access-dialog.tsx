import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { FormError } from '../../../components/form-message'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '../../../components/ui/dialog'
import { RadioCard, RadioGroup } from '../../../components/ui/radio-group'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { modelQueries, useSetModelAccess, type AdminPermittedModel } from '../api'

/** Who may use a language model: every member, or the members of chosen groups. */
export function ModelAccessDialog(props: { model: AdminPermittedModel | null; onClose: () => void }) {
  const { t } = useTranslation('models')
  const groups = useQuery({ ...modelQueries.groups(useApi()), enabled: props.model !== null }).data
  const save = useSetModelAccess()
  const [restricted, setRestricted] = useState(false)
  const [chosen, setChosen] = useState<string[]>([])
  const { model } = props

  useEffect(() => {
    if (!model) return
    setRestricted(model.restricted)
    setChosen(model.groupIds)
    save.reset()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [model])

  const toggle = (id: string, on: boolean) => setChosen((ids) => (on ? [...ids, id] : ids.filter((x) => x !== id)))
  const submit = (event: React.FormEvent) => {
    event.preventDefault()
    if (!model) return
    save.mutate(
      { id: model.id, restricted, groupIds: restricted ? chosen : [] },
      {
        onSuccess: () => {
          toast.success(t('access.saved', { name: model.displayName }))
          props.onClose()
        },
      },
    )
  }

  return (
    <Dialog open={model !== null} onOpenChange={(open) => !open && props.onClose()}>
      <DialogContent closeLabel={t('access.close')}>
        <DialogHeader title={t('access.title', { name: model?.displayName ?? '' })} description={t('access.description')} />
        <form className="grid gap-4" onSubmit={submit}>
          {save.error && <FormError>{errorMessage(t, save.error)}</FormError>}
          <RadioGroup value={restricted ? 'groups' : 'everyone'} onValueChange={(v) => setRestricted(v === 'groups')} aria-label={t('access.who')}>
            <RadioCard value="everyone">{t('access.everyone')}</RadioCard>
            <RadioCard value="groups">{t('access.chosenGroups')}</RadioCard>
          </RadioGroup>
          {restricted && (
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">{t('access.groups')}</legend>
              {groups?.length === 0 && (
                <p className="text-sm text-muted-foreground">
                  {t('access.noGroups')}{' '}
                  <Link to="/admin-settings/groups" className="font-medium underline underline-offset-4">
                    {t('access.toGroups')}
                  </Link>
                </p>
              )}
              {groups?.map((g) => (
                <label key={g.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 rounded border-input accent-primary"
                    checked={chosen.includes(g.id)}
                    onChange={(e) => toggle(g.id, e.target.checked)}
                  />
                  {g.name}
                </label>
              ))}
              {chosen.length === 0 && groups && groups.length > 0 && <p className="text-[13px] text-muted-foreground">{t('access.nobodyHint')}</p>}
            </fieldset>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={props.onClose}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? t('common:loading') : t('access.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

/** The badge of a restricted model: which groups it is open to. */
export function AccessBadge(props: { model: AdminPermittedModel; groupNames: Map<string, string> }) {
  const { t } = useTranslation('models')
  if (!props.model.restricted) return null
  const names = props.model.groupIds.map((id) => props.groupNames.get(id)).filter(Boolean)
  return (
    <span data-testid="model-access" className="rounded-md border px-1.5 py-0.5 text-[12px] text-muted-foreground">
      {names.length ? t('access.openTo', { groups: names.join(', ') }) : t('access.nobody')}
    </span>
  )
}
