import type { AppDeps } from '../../lib/context'
import type { AuditActor, AuditFrom } from '../audit/access'

/** One authenticated SCIM request: the token's organisation, who acts in the audit log, the endpoint's base URL. */
export type ScimContext = { deps: AppDeps; organizationId: string; actor: AuditActor; from: AuditFrom; base: string }
