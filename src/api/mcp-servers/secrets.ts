import { isNotNull } from 'drizzle-orm'
import { mcpServers } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { underCurrentSecret } from '../../lib/secret-box'
import { serverAddress } from './access'

/**
 * Encrypts the headers of every MCP server still under KONTOR_SECRET_PREVIOUS with the current
 * secret (beside the endpoint keys, at start and with the Workers' cron); returns how many it moved.
 */
export async function reencryptMcpHeaders(deps: AppDeps): Promise<number> {
  if (!deps.config.previousSecret) return 0
  const rows = await deps.db
    .select({ id: mcpServers.id, url: mcpServers.url, headersEncrypted: mcpServers.headersEncrypted })
    .from(mcpServers)
    .where(isNotNull(mcpServers.headersEncrypted))
  let moved = 0
  for (const row of rows) {
    if (await underCurrentSecret(deps, row.headersEncrypted!)) continue
    try {
      await serverAddress(deps, row)
      moved++
    } catch (error) {
      deps.logger.error('MCP server headers can be decrypted with neither KONTOR_SECRET nor KONTOR_SECRET_PREVIOUS', { serverId: row.id, error })
    }
  }
  if (moved) deps.logger.info('MCP server headers encrypted again with the current secret', { count: moved })
  return moved
}
