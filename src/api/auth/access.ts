import { eq } from 'drizzle-orm'
import { organizations, users } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { fail } from '../../lib/errors'
import { twoFactorMissing } from '../../auth/two-factor'
import type { MeResponse } from './schema'

/** The caller with role and organisation. */
export async function getMe(deps: AppDeps, userId: string): Promise<MeResponse> {
  const row = await deps.db
    .select({ user: users, organization: { id: organizations.id, name: organizations.name }, twoFactorMissing })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(users.id, userId))
    .get()
  if (!row) fail('UNAUTHORIZED')
  const { user, organization } = row
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified,
    role: user.role,
    locale: user.locale,
    theme: user.theme ?? null,
    organization,
    twoFactorSetupRequired: !!row.twoFactorMissing,
  }
}

/**
 * Whether registering a new organisation is refused now: always when closed, and once the first
 * organisation exists when first-only (KONTOR_REGISTRATION). The register service asks again
 * inside its transaction, so two first registrations at once cannot both pass.
 */
export async function registrationClosed(deps: Pick<AppDeps, 'config' | 'db'>): Promise<boolean> {
  if (deps.config.registration !== 'first-only') return deps.config.registration === 'closed'
  return (await deps.db.select({ id: organizations.id }).from(organizations).limit(1).get()) !== undefined
}
