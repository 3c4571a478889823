import type { SessionUser } from './context'
import { fail } from './errors'

/** The first line of every admin-only service verb: routes say `access: 'admin'` too, services do not rely on it. */
export function requireAdmin(caller: SessionUser): void {
  if (caller.role !== 'admin') fail('FORBIDDEN')
}
