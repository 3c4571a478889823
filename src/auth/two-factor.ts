import { sql } from 'drizzle-orm'
import { accounts, organizations, passkeys, users } from '../../db/schema'

/**
 * Whether a member must still set up a second factor: their organisation requires one, they have
 * a password (members who sign in only through the identity provider are its business), and they
 * have neither an authenticator app nor a passkey. One expression, so the session read carries it.
 */
export const twoFactorMissing = sql<number>`CASE WHEN ${organizations.requireTwoFactor} = 1 AND ${users.twoFactorEnabled} = 0
  AND EXISTS (SELECT 1 FROM ${accounts} WHERE ${accounts.userId} = ${users.id} AND ${accounts.providerId} = 'credential')
  AND NOT EXISTS (SELECT 1 FROM ${passkeys} WHERE ${passkeys.userId} = ${users.id}) THEN 1 ELSE 0 END`
