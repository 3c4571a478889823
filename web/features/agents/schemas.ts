import { z } from 'zod/mini'
import { AGENT_INSTRUCTIONS_MAX, AGENT_NAME_MAX } from '../../../src/api/agents/limits'

// Messages are i18n keys (with their namespace); limits are the server's, so a form the client
// accepts is one the server accepts.
export const agentSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'agents:validation.nameRequired'), z.maxLength(AGENT_NAME_MAX, 'agents:validation.nameTooLong')),
  instructions: z.string().check(
    z.maxLength(AGENT_INSTRUCTIONS_MAX, 'agents:validation.instructionsTooLong'),
    z.refine((v) => v.trim().length > 0, 'agents:validation.instructionsRequired'),
  ),
  modelId: z.string().check(z.minLength(1, 'agents:validation.modelRequired')),
  tools: z.array(z.string()),
  collectionIds: z.array(z.string()),
})
export type AgentValues = z.infer<typeof agentSchema>

/** The server's English field messages (VALIDATION_FAILED or MODEL_NOT_FOUND `fields`), as the form's keys. */
const SERVER_FIELD_MESSAGES: Record<string, string> = {
  'Name is required': 'agents:validation.nameRequired',
  [`Name must be at most ${AGENT_NAME_MAX} characters`]: 'agents:validation.nameTooLong',
  'Instructions are required': 'agents:validation.instructionsRequired',
  [`Instructions must be at most ${AGENT_INSTRUCTIONS_MAX} characters`]: 'agents:validation.instructionsTooLong',
  'Model is required': 'agents:validation.modelRequired',
  'Choose a model your organisation permits': 'agents:validation.modelNotPermitted',
  'Choose collections you may read': 'agents:validation.collectionsNotReadable',
}

export const agentFieldKey = (message: string) => SERVER_FIELD_MESSAGES[message] ?? 'invalid'
