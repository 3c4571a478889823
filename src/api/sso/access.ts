import { and, eq, isNotNull } from 'drizzle-orm'
import { ssoDomains, ssoProviders } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase()

/** The organisation's provider behind an address's domain, when the domain is proven. */
export async function ssoProviderForEmail(deps: Pick<AppDeps, 'db'>, email: string) {
  const [row] = await deps.db
    .select({ providerId: ssoProviders.providerId, passwordSignIn: ssoProviders.passwordSignIn, organizationId: ssoProviders.organizationId })
    .from(ssoDomains)
    .innerJoin(ssoProviders, eq(ssoProviders.organizationId, ssoDomains.organizationId))
    .where(and(eq(ssoDomains.domain, domainOf(email)), isNotNull(ssoDomains.verifiedAt)))
  return row ?? null
}

/** Whether the organisation owning the address's domain allows password sign-in no more. */
export async function passwordSignInRefused(deps: Pick<AppDeps, 'db'>, email: string): Promise<boolean> {
  const provider = await ssoProviderForEmail(deps, email)
  return provider !== null && !provider.passwordSignIn
}
