import { Plus } from '../../../components/icons'
import { Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { RowsSkeleton } from '../../../components/rows-skeleton'
import { SectionCard } from '../../../components/section-card'
import { Button } from '../../../components/ui/button'
import type { Group } from '../api'
import { GroupNameDialog } from './group-name-dialog'
import { GroupsList } from './groups-list'

/** Admin Settings → Groups: the organisation's teams, which models can be opened to. */
export function GroupsPage() {
  const { t } = useTranslation('groups')
  const [dialog, setDialog] = useState<{ group: Group | null } | null>(null)
  return (
    <div className="grid gap-6">
      <SectionCard
        flush
        id="groups"
        title={t('title')}
        description={t('description')}
        action={
          <Button onClick={() => setDialog({ group: null })}>
            <Plus />
            {t('create')}
          </Button>
        }
      >
        <Suspense fallback={<RowsSkeleton label={t('common:loading')} />}>
          <GroupsList onCreate={() => setDialog({ group: null })} onRename={(group) => setDialog({ group })} />
        </Suspense>
      </SectionCard>
      <GroupNameDialog open={dialog !== null} group={dialog?.group ?? null} onClose={() => setDialog(null)} />
    </div>
  )
}

/** What the page looks like while its lists load (the route's pending view). */
export function GroupsPageSkeleton() {
  const { t } = useTranslation('groups')
  return (
    <div className="grid gap-6">
      <SectionCard flush id="groups" title={t('title')} description={t('description')}>
        <RowsSkeleton label={t('common:loading')} />
      </SectionCard>
    </div>
  )
}
