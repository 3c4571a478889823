import { ScimSection } from './scim-section'
import { SsoSection } from './sso-section'

/** Admin → Security: how the organisation's members sign in and how its identity provider reaches Kontor. One section per capability. */
export function SecurityPage() {
  return (
    <div className="grid gap-6">
      <SsoSection />
      <ScimSection />
    </div>
  )
}
