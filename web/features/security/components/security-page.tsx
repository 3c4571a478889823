import { ScimSection } from './scim-section'
import { SsoSection } from './sso-section'
import { TwoFactorSection } from './two-factor-section'

/** Admin → Security: how the organisation's members sign in and whether they need a second factor, how its identity provider reaches Kontor. One section per capability. */
export function SecurityPage() {
  return (
    <div className="grid gap-6">
      <SsoSection />
      <TwoFactorSection />
      <ScimSection />
    </div>
  )
}
