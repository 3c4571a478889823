import { Link } from '@tanstack/react-router'
import { Copy, MessageSquarePlus, Pencil, Share2, Trash2 } from '../../../components/icons'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { LocalDate } from '../../../components/local-date'
import { buttonVariants } from '../../../components/ui/button'
import { Card } from '../../../components/ui/card'
import { Badge } from '../../../components/ui/badge'
import { errorMessage } from '../../../lib/error-message'
import { useCopyPrompt, useDeletePrompt, useSharePrompt, type Prompt } from '../api'
import { VariableChips } from './variable-chips'
import { IconAction } from '../../../components/icon-action'
import { ReadOnlyShareDialog, type ReadOnlySharing } from '../../../components/read-only-share-dialog'

/**
 * One saved prompt: title, the first lines of its content, its variables, and what can be done with
 * it. The owner edits, shares and deletes it; a prompt shared with the caller is read-only, and
 * "Make a copy" gives them their own to change.
 */
export function PromptCard(props: { prompt: Prompt; onEdit: (prompt: Prompt) => void }) {
  const { t } = useTranslation('prompts')
  const { prompt } = props
  const remove = useDeletePrompt()
  const copy = useCopyPrompt()
  const share = useSharePrompt()
  const [sharing, setSharing] = useState(false)
  const titleId = `prompt-${prompt.id}-title`
  const shared = prompt.sharedWithOrganization || prompt.groups.length > 0

  const saveSharing = (sharing: ReadOnlySharing) =>
    share.mutate(
      { id: prompt.id, ...sharing },
      {
        onSuccess: () => {
          toast.success(t('share.saved', { title: prompt.title }))
          setSharing(false)
        },
        onError: (error) => toast.error(t('share.failed'), { description: errorMessage(t, error) }),
      },
    )

  const makeCopy = () =>
    copy.mutate(prompt.id, {
      onSuccess: (created) => toast.success(t('copy.done', { title: created.title })),
      onError: (error) => toast.error(t('copy.failed'), { description: errorMessage(t, error) }),
    })

  const confirmDelete = () =>
    confirm({
      title: t('delete.title'),
      description: t('delete.description', { title: prompt.title }),
      confirmLabel: t('delete.confirm'),
      destructive: true,
      action: () =>
        remove.mutateAsync(prompt.id, {
          onSuccess: () => toast.success(t('delete.done', { title: prompt.title })),
        }),
    })

  return (
    <Card role="article" aria-labelledby={titleId} data-testid="prompt-card" className="flex min-w-0 flex-col gap-3 p-4 shadow-none">
      <div className="flex items-start gap-2">
        <h3 id={titleId} className="min-w-0 flex-1 pt-1 font-medium leading-snug [overflow-wrap:anywhere]">
          {prompt.title}
        </h3>
        {prompt.mine ? (
          <div className="-mr-1.5 -mt-0.5 flex shrink-0 gap-0.5">
            <IconAction className="size-8" label={t('card.edit', { title: prompt.title })} onClick={() => props.onEdit(prompt)}>
              <Pencil />
            </IconAction>
            <IconAction className="size-8" label={t('card.share', { title: prompt.title })} onClick={() => setSharing(true)}>
              <Share2 />
            </IconAction>
            <IconAction className="size-8" label={t('card.delete', { title: prompt.title })} destructive onClick={confirmDelete}>
              <Trash2 />
            </IconAction>
          </div>
        ) : (
          <div className="-mr-1.5 -mt-0.5 flex shrink-0 gap-0.5">
            <IconAction className="size-8" label={t('card.copy', { title: prompt.title })} disabled={copy.isPending} onClick={makeCopy}>
              <Copy />
            </IconAction>
          </div>
        )}
      </div>
      {prompt.mine ? (
        shared && (
          <Badge className="self-start">
            {prompt.sharedWithOrganization ? t('card.sharedWithOrganization') : t('card.sharedWithGroups', { groups: prompt.groups.map((g) => g.name).join(', ') })}
          </Badge>
        )
      ) : (
        <p className="text-xs text-muted-foreground">{t('card.sharedBy', { name: prompt.owner.name })}</p>
      )}
      <p className="line-clamp-3 whitespace-pre-line text-sm text-muted-foreground [overflow-wrap:anywhere]">{prompt.content}</p>
      <VariableChips names={prompt.variables} label={t('card.variables')} />
      <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-1">
        <span className="text-xs text-muted-foreground">
          {t('card.updated')} <LocalDate iso={prompt.updatedAt} />
        </span>
        <Link to="/chat" search={{ prompt: prompt.id }} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          <MessageSquarePlus />
          {t('card.use')}
        </Link>
      </div>
      {prompt.mine && sharing && (
        <ReadOnlyShareDialog
          title={t('share.title', { title: prompt.title })}
          description={t('share.description')}
          current={prompt}
          pending={share.isPending}
          onSave={saveSharing}
          open={sharing}
          onOpenChange={setSharing}
        />
      )}
    </Card>
  )
}
