import { ScimSection } from './scim-section'

/** Admin → Security: how the organisation's identity provider reaches Kontor, one section per capability. */
export function SecurityPage() {
  return (
    <div className="grid gap-6">
      <ScimSection />
    </div>
  )
}
