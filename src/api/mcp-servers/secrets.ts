import { isNotNull } from 'drizzle-orm'
import { mcpServers } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { moveToCurrentSecret } from '../../lib/secret-box'
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
  return moveToCurrentSecret(deps, rows, (r) => r.headersEncrypted!, (r) => serverAddress(deps, r), 'MCP server headers')
}
