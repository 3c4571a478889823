import { anthropicAdapter } from './anthropic'
import { withGatewayPolicy } from './gateway'
import { mistralAdapter } from './mistral'
import { openaiAdapter } from './openai'
import type { ChatProvider, ProviderConfig } from './types'

export { isAbort, ProviderError } from './errors'
export { withUsageMeter, type MeteredCall } from './usage-meter'
export type * from './types'

/**
 * A model provider behind the gateway's policy (timeouts, aborts, retries before the first
 * event). Uses only fetch, so it runs on Bun, Node and Workers; nothing is read from the
 * environment: keys and base URLs come in through `config`.
 */
export function createProvider(config: ProviderConfig): ChatProvider {
  const adapter =
    config.kind === 'anthropic' ? anthropicAdapter(config) : config.kind === 'mistral' ? mistralAdapter(config) : openaiAdapter(config)
  return withGatewayPolicy(adapter, { timeouts: config.timeouts, retry: config.retry })
}
