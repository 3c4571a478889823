import { z } from 'zod'
import { organizationNameSchema } from '../auth/schema'

export const organizationResponse = z.object({ id: z.string(), name: z.string(), createdAt: z.string() })
export const updateOrganizationBody = z.object({ name: organizationNameSchema })

export type OrganizationView = z.infer<typeof organizationResponse>
