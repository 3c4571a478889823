import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { Label } from '../../../components/ui/label'
import { NativeSelect } from '../../../components/ui/native-select'
import { collectionQueries, type Collection } from '../../../lib/collection-queries'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { knowledgeApi, useCollectionsMutation, type CollectionRole } from '../api'

type Choice = CollectionRole | 'none'

/** The owner's sharing: nobody (private), the whole organisation and/or groups, each as readers or editors. */
export function SharingForm(props: { collection: Collection }) {
  const { t } = useTranslation('knowledge')
  const api = useApi()
  const targets = useQuery(collectionQueries.shareTargets(api)).data?.groups ?? []
  const [organization, setOrganization] = useState<Choice>(props.collection.organizationRole ?? 'none')
  const [groups, setGroups] = useState<Record<string, Choice>>(Object.fromEntries(props.collection.groups.map((g) => [g.id, g.role])))
  const share = useCollectionsMutation((a, _: void) =>
    knowledgeApi.share(a, props.collection.id, {
      organizationRole: organization === 'none' ? null : organization,
      groups: Object.entries(groups).flatMap(([groupId, role]) => (role === 'none' ? [] : [{ groupId, role }])),
    }),
  )
  const options = (
    <>
      <option value="none">{t('sharing.none')}</option>
      <option value="reader">{t('role.reader')}</option>
      <option value="editor">{t('role.editor')}</option>
    </>
  )

  return (
    <section aria-labelledby="collection-sharing" className="grid gap-3">
      <h2 id="collection-sharing" className="font-medium">
        {t('sharing.title')}
      </h2>
      <p className="text-sm text-muted-foreground">{t('sharing.hint')}</p>
      <div className="grid gap-3 rounded-xl border p-4">
        <div className="grid gap-1.5 sm:grid-cols-[1fr_12rem] sm:items-center">
          <Label htmlFor="share-organization">{t('sharing.organization')}</Label>
          <NativeSelect id="share-organization" value={organization} onChange={(e) => setOrganization(e.target.value as Choice)}>
            {options}
          </NativeSelect>
        </div>
        {targets.map((g) => (
          <div key={g.id} className="grid gap-1.5 sm:grid-cols-[1fr_12rem] sm:items-center">
            <Label htmlFor={`share-group-${g.id}`}>{t('sharing.group', { name: g.name })}</Label>
            <NativeSelect id={`share-group-${g.id}`} value={groups[g.id] ?? 'none'} onChange={(e) => setGroups((all) => ({ ...all, [g.id]: e.target.value as Choice }))}>
              {options}
            </NativeSelect>
          </div>
        ))}
        <Button
          className="justify-self-start"
          disabled={share.isPending}
          onClick={() =>
            share.mutate(undefined, {
              onSuccess: () => toast.success(t('sharing.saved')),
              onError: (error) => toast.error(t('sharing.failed'), { description: errorMessage(t, error) }),
            })
          }
        >
          {t('sharing.save')}
        </Button>
      </div>
    </section>
  )
}
