import { SsoSection } from './sso-section'

/** Admin → Security: how the organisation's members sign in. One section per capability. */
export function SecurityPage() {
  return (
    <div className="grid gap-6">
      <SsoSection />
    </div>
  )
}
