import { sql } from 'drizzle-orm'
import { users } from '../../../db/schema'

/** More than one active admin in the organisation, evaluated inside the statement that changes it. */
export const anotherAdminExists = (organizationId: string) =>
  sql`(SELECT count(*) FROM ${users} WHERE ${users.organizationId} = ${organizationId} AND ${users.role} = 'admin' AND ${users.deactivatedAt} IS NULL) > 1`
