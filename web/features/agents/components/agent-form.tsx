import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { DialogFooter } from '../../../components/ui/dialog'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { NativeSelect } from '../../../components/ui/native-select'
import { Textarea } from '../../../components/ui/textarea'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { FormError } from '../../../components/form-message'
import { AGENT_TOOLS } from '../../../../src/api/agents/limits'
import type { PermittedModel } from '../../../../src/api/models/schema'
import { providerName } from '../../../lib/provider-name'
import { useCreateAgent, useUpdateAgent, type Agent } from '../api'
import { agentFieldKey, agentSchema, type AgentValues } from '../schemas'
import { AgentCapabilities } from './agent-capabilities'
import { AgentCollections, AgentTools } from './agent-tools'

const FIELDS = ['name', 'instructions', 'modelId', 'collectionIds'] as const

/** The model a form starts with: the agent's while it is permitted, else the organisation's default (new agents). */
function initialModelId(models: PermittedModel[], agent?: Agent) {
  if (agent) return models.some((m) => m.id === agent.modelId) ? agent.modelId! : ''
  return (models.find((m) => m.isOrganizationDefault) ?? models[0])?.id ?? ''
}

/** Name, model, instructions, tools and collections of a new agent, or of `agent` when it is given. */
export function AgentForm(props: { agent?: Agent; models: PermittedModel[]; onSaved: (agent: Agent) => void; onCancel: () => void }) {
  const { t } = useTranslation('agents')
  const create = useCreateAgent()
  const update = useUpdateAgent()
  const save = props.agent ? update : create
  const form = useForm<AgentValues>({
    resolver: zodResolver(agentSchema),
    defaultValues: {
      name: props.agent?.name ?? '',
      instructions: props.agent?.instructions ?? '',
      modelId: initialModelId(props.models, props.agent),
      tools: props.agent?.tools ?? [...AGENT_TOOLS],
      collectionIds: props.agent?.collections.map((c) => c.id) ?? [],
    },
  })
  const { errors } = form.formState

  const onError = (error: unknown) => {
    if (!isApiError(error)) return
    for (const [field, message] of Object.entries(error.fields ?? {})) {
      const name = FIELDS.find((f) => f === field)
      if (name) form.setError(name, { message: agentFieldKey(message) }, { shouldFocus: true })
    }
  }
  const submit = form.handleSubmit((values) => {
    save.reset()
    const options = { onSuccess: props.onSaved, onError }
    if (props.agent) update.mutate({ id: props.agent.id, ...values }, options)
    else create.mutate(values, options)
  })
  // Said above the fields only when no field carries it.
  const failure = save.error && !(isApiError(save.error) && save.error.fields)
  const lostModel = props.agent && !props.agent.available

  return (
    <form className="grid gap-4" noValidate onSubmit={submit}>
      {failure && <FormError>{errorMessage(t, save.error)}</FormError>}
      <FormField id="agent-name" label={t('form.name')} error={errors.name?.message}>
        <Input autoComplete="off" placeholder={t('form.namePlaceholder')} {...fieldA11y('agent-name', errors.name?.message)} {...form.register('name')} />
      </FormField>
      <FormField
        id="agent-model"
        label={t('form.model')}
        error={errors.modelId?.message}
        hint={lostModel ? t('form.modelLost') : t('form.modelHint')}
      >
        <NativeSelect {...fieldA11y('agent-model', errors.modelId?.message)} {...form.register('modelId')}>
          <option value="" disabled>
            {t('form.modelPlaceholder')}
          </option>
          {props.models.map((model) => (
            <option key={model.id} value={model.id}>
              {t('modelName', { model: model.displayName, provider: providerName(t, model.providerId, model.providerName) })}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField id="agent-instructions" label={t('form.instructions')} error={errors.instructions?.message} hint={t('form.instructionsHint')}>
        <Textarea
          rows={5}
          placeholder={t('form.instructionsPlaceholder')}
          className="max-h-[40dvh] min-h-28"
          {...fieldA11y('agent-instructions', errors.instructions?.message)}
          {...form.register('instructions')}
        />
      </FormField>
      <AgentTools control={form.control} mcpTools={props.agent?.mcpTools ?? []} />
      <AgentCollections control={form.control} error={errors.collectionIds?.message} />
      <AgentCapabilities />
      <DialogFooter className="pt-1">
        <Button variant="outline" onClick={props.onCancel}>
          {t('common:cancel')}
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t('common:loading') : props.agent ? t('form.saveChanges') : t('form.create')}
        </Button>
      </DialogFooter>
    </form>
  )
}
