import { Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { FormError } from '../../../components/form-message'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '../../../components/ui/dialog'
import { RadioCard, RadioGroup } from '../../../components/ui/radio-group'
import { errorMessage } from '../../../lib/error-message'
import { useEnableMcpTool, type Group, type McpAgentChoice, type McpListedTool, type McpServer, type McpToolAccess } from '../api'

type Scope = McpToolAccess['scope']

/** Enables a tool of a server, or changes who gets it: everyone, the members of chosen groups, or chats with chosen agents. */
export function McpToolDialog(props: { server: McpServer; tool: McpListedTool | null; groups: Group[]; agents: McpAgentChoice[]; onClose: () => void }) {
  const { t } = useTranslation('mcp')
  const save = useEnableMcpTool()
  const [scope, setScope] = useState<Scope>('everyone')
  const [groupIds, setGroupIds] = useState<string[]>([])
  const [agentIds, setAgentIds] = useState<string[]>([])
  const { tool } = props

  useEffect(() => {
    if (!tool) return
    setScope(tool.access?.scope ?? 'everyone')
    setGroupIds(tool.access?.groupIds ?? [])
    setAgentIds(tool.access?.agentIds ?? [])
    save.reset()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tool])

  const submit = (event: React.FormEvent) => {
    event.preventDefault()
    if (!tool) return
    const access = { scope, groupIds: scope === 'groups' ? groupIds : [], agentIds: scope === 'agents' ? agentIds : [] }
    save.mutate(
      { id: props.server.id, name: tool.name, access },
      {
        onSuccess: () => {
          toast.success(t('saved', { name: tool.name }))
          props.onClose()
        },
      },
    )
  }

  const choices = (items: { id: string; label: string }[], chosen: string[], set: (ids: string[]) => void, legend: string) => (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {items.map((item) => (
        <label key={item.id} className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 rounded border-input accent-primary"
            checked={chosen.includes(item.id)}
            onChange={(e) => set(e.target.checked ? [...chosen, item.id] : chosen.filter((x) => x !== item.id))}
          />
          {item.label}
        </label>
      ))}
    </fieldset>
  )

  return (
    <Dialog open={tool !== null} onOpenChange={(open) => !open && props.onClose()}>
      <DialogContent closeLabel={t('close')}>
        <DialogHeader title={t('dialogTitle', { name: tool?.name ?? '' })} description={t('dialogDescription', { server: props.server.name })} />
        <form className="grid gap-4" onSubmit={submit}>
          {save.error && <FormError>{errorMessage(t, save.error)}</FormError>}
          <RadioGroup value={scope} onValueChange={(v) => setScope(v as Scope)} aria-label={t('who')}>
            <RadioCard value="everyone">{t('scope.everyone')}</RadioCard>
            <RadioCard value="groups">{t('scope.groups')}</RadioCard>
            <RadioCard value="agents">{t('scope.agents')}</RadioCard>
          </RadioGroup>
          {scope === 'groups' &&
            (props.groups.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                {t('noGroups')}{' '}
                <Link to="/admin-settings/groups" className="font-medium underline underline-offset-4">
                  {t('toGroups')}
                </Link>
              </p>
            ) : (
              choices(props.groups.map((g) => ({ id: g.id, label: g.name })), groupIds, setGroupIds, t('groups'))
            ))}
          {scope === 'agents' &&
            (props.agents.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t('noAgents')}</p>
            ) : (
              choices(props.agents.map((a) => ({ id: a.id, label: t('agentOf', { name: a.name, owner: a.ownerName }) })), agentIds, setAgentIds, t('agents'))
            ))}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={props.onClose}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? t('common:loading') : t('save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
