/** Where a provider processes data, shown to admins before they permit it. */
export type HostingRegion = 'de' | 'eu' | 'us' | 'selfHosted' | 'sovereignCloud'

export type PlatformProviderId = 'openai' | 'anthropic' | 'mistral' | 'ollama' | 'demo'

export type ProviderInfo = {
  id: string
  name: string
  region: HostingRegion
  /** The version of the provider's additional terms an admin accepts when permitting it. */
  termsVersion: string
  termsUrl?: string
  /** Models come from the endpoint's /v1/models instead of the catalogue. */
  listsOwnModels: boolean
}

export type CatalogueModel = {
  model: string
  displayName: string
  streaming: boolean
  reasoning: boolean
  embedding: boolean
  contextWindow: number | null
  /** US dollars per million tokens. */
  price: { input: number; output: number } | null
}

export const PLATFORM_PROVIDERS: Record<PlatformProviderId, ProviderInfo> = {
  openai: {
    id: 'openai',
    name: 'OpenAI',
    region: 'us',
    termsVersion: '2025-01',
    termsUrl: 'https://openai.com/policies/business-terms/',
    listsOwnModels: false,
  },
  anthropic: {
    id: 'anthropic',
    name: 'Anthropic',
    region: 'us',
    termsVersion: '2025-01',
    termsUrl: 'https://www.anthropic.com/legal/commercial-terms',
    listsOwnModels: false,
  },
  mistral: {
    id: 'mistral',
    name: 'Mistral AI',
    region: 'eu',
    termsVersion: '2025-01',
    termsUrl: 'https://mistral.ai/terms/',
    listsOwnModels: false,
  },
  ollama: { id: 'ollama', name: 'Self-hosted (OpenAI-compatible)', region: 'selfHosted', termsVersion: 'self-hosted', listsOwnModels: true },
  // Only `npm run demo` configures it: a scripted model on this machine (src/demo/).
  demo: { id: 'demo', name: 'Kontor demo (on this machine)', region: 'selfHosted', termsVersion: 'demo', listsOwnModels: false },
}

const chat = (model: string, displayName: string, contextWindow: number, input: number, output: number, reasoning = false): CatalogueModel => ({
  model,
  displayName,
  streaming: true,
  reasoning,
  embedding: false,
  contextWindow,
  price: { input, output },
})

const embedding = (model: string, displayName: string, contextWindow: number, input: number): CatalogueModel => ({
  model,
  displayName,
  streaming: false,
  reasoning: false,
  embedding: true,
  contextWindow,
  price: { input, output: 0 },
})

/** Known models per platform provider (prices in USD per million tokens, as published). */
export const CATALOGUE: Record<Exclude<PlatformProviderId, 'ollama'>, CatalogueModel[]> = {
  openai: [
    chat('gpt-4.1', 'GPT-4.1', 1_047_576, 2, 8),
    chat('gpt-4.1-mini', 'GPT-4.1 mini', 1_047_576, 0.4, 1.6),
    chat('gpt-4o', 'GPT-4o', 128_000, 2.5, 10),
    chat('o4-mini', 'o4-mini', 200_000, 1.1, 4.4, true),
    embedding('text-embedding-3-small', 'Text Embedding 3 small', 8_191, 0.02),
    embedding('text-embedding-3-large', 'Text Embedding 3 large', 8_191, 0.13),
  ],
  anthropic: [
    chat('claude-sonnet-4-5', 'Claude Sonnet 4.5', 200_000, 3, 15, true),
    chat('claude-haiku-4-5', 'Claude Haiku 4.5', 200_000, 1, 5),
    chat('claude-opus-4-1', 'Claude Opus 4.1', 200_000, 15, 75, true),
  ],
  demo: [
    { ...chat('demo-assistant', 'Demo assistant (scripted, no AI)', 32_000, 0, 0), price: null },
    { ...embedding('demo-embedding', 'Demo embedding (word hashing)', 8_192, 0), price: null },
  ],
  mistral: [
    chat('mistral-large-latest', 'Mistral Large', 128_000, 2, 6),
    chat('mistral-medium-latest', 'Mistral Medium', 128_000, 0.4, 2),
    chat('mistral-small-latest', 'Mistral Small', 128_000, 0.1, 0.3),
    chat('magistral-medium-latest', 'Magistral Medium', 40_000, 2, 5, true),
    embedding('mistral-embed', 'Mistral Embed', 8_192, 0.1),
  ],
}

/** Models reported by a self-hosted endpoint: flags guessed from the name, no prices. */
export function selfHostedModel(model: string): CatalogueModel {
  const isEmbedding = /embed|bge|e5-|minilm|nomic/i.test(model)
  return {
    model,
    displayName: model,
    streaming: !isEmbedding,
    reasoning: /r1|reason|think|qwq/i.test(model),
    embedding: isEmbedding,
    contextWindow: null,
    price: null,
  }
}
