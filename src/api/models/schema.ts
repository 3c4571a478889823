import { z } from 'zod'

export const hostingRegion = z.enum(['de', 'eu', 'us', 'selfHosted', 'sovereignCloud'])

/** `provider/model`, e.g. `openai/gpt-4.1` (the model part may itself contain slashes). */
export const modelRef = z.string().trim().min(3).max(300).regex(/^[\w.-]+\/.+$/, 'Must look like provider/model')

export const providerResponse = z.object({
  id: z.string(),
  name: z.string(),
  region: hostingRegion,
  custom: z.boolean(),
  termsVersion: z.string(),
  termsUrl: z.string().optional(),
  permitted: z.boolean(),
  acceptedAt: z.string().nullable(),
  acceptedByName: z.string().nullable(),
})

export const modelFlags = {
  streaming: z.boolean(),
  reasoning: z.boolean(),
  embedding: z.boolean(),
  contextWindow: z.number().nullable(),
  price: z.object({ input: z.number(), output: z.number() }).nullable(),
}

export const availableModelResponse = z.object({
  modelId: z.string(),
  providerId: z.string(),
  providerName: z.string(),
  region: hostingRegion,
  model: z.string(),
  displayName: z.string(),
  ...modelFlags,
  providerPermitted: z.boolean(),
  /** The permitted model's id when the organisation permits it. */
  permittedId: z.string().nullable(),
})

export const availableModelsResponse = z.object({
  models: z.array(availableModelResponse),
  /** Self-hosted providers whose model list could not be read just now. */
  unreachableProviders: z.array(z.string()),
})

export const permittedModelResponse = z.object({
  id: z.string(),
  modelId: z.string(),
  providerId: z.string(),
  providerName: z.string(),
  region: hostingRegion,
  model: z.string(),
  displayName: z.string(),
  ...modelFlags,
  /** The price is the admin's, not the catalogue's. */
  priceOverridden: z.boolean(),
  /** Open only to chosen groups (else to every member). */
  restricted: z.boolean(),
  isOrganizationDefault: z.boolean(),
  isEmbeddingModel: z.boolean(),
})

/** What admins see of a permitted model: also the groups a restricted model is open to. */
export const adminPermittedModelResponse = permittedModelResponse.extend({ groupIds: z.array(z.string()) })

export const modelAccessBody = z
  .object({
    restricted: z.boolean(),
    groupIds: z.array(z.string().min(1).max(64)).max(500).default([]),
  })
  .refine((b) => b.restricted || b.groupIds.length === 0, { path: ['groupIds'], message: 'Groups are chosen only for a model open to chosen groups' })

const pricePerMillion = z
  .number('Must be a number')
  .finite('Must be a number')
  .min(0, 'Must not be negative')
  .max(10_000, 'At most 10,000 US dollars per million tokens')
export const modelPriceBody = z.object({ input: pricePerMillion, output: pricePerMillion })

export const permitModelBody = z.object({ modelId: modelRef })
export const permittedIdParams = z.object({ id: z.string().min(1).max(64) })
export const permittedIdBody = z.object({ id: z.string().min(1, 'Model is required').max(64) })
export const providerBody = z.object({ providerId: z.string().min(1).max(100) })
export const permitProviderBody = providerBody.extend({
  termsAccepted: z.literal(true, 'The additional terms must be accepted'),
})
export const defaultModelResponse = z.object({ model: permittedModelResponse.nullable() })

export const createEndpointBody = z.object({
  name: z.string().trim().min(1, 'Name is required').max(60),
  baseUrl: z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL' }).max(500),
  apiKey: z.string().max(500).optional(),
})
export const endpointResponse = z.object({
  id: z.string(),
  providerId: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  hasApiKey: z.boolean(),
})
export const endpointIdParams = z.object({ id: z.string().min(1).max(64) })

export type PermittedModel = z.infer<typeof permittedModelResponse>
