import { z } from 'zod'
import { sourceResponse } from '../sources/schema'
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_GROUPS_MAX, COLLECTION_NAME_MAX, COLLECTION_ROLES } from './limits'

export * from './limits'

export const collectionRole = z.enum(COLLECTION_ROLES)
/** The caller's relation to a collection: its owner, or the best role a share gives them. */
export const accessRole = z.enum(['owner', ...COLLECTION_ROLES])
export type AccessRole = z.infer<typeof accessRole>

const name = z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(COLLECTION_NAME_MAX, `Name must be at most ${COLLECTION_NAME_MAX} characters`)
const description = z
  .string()
  .trim()
  .max(COLLECTION_DESCRIPTION_MAX, `Description must be at most ${COLLECTION_DESCRIPTION_MAX} characters`)
  .nullable()
  .transform((d) => d || null)

export const createCollectionBody = z.object({ name, description: description.optional() })
/** A new name and/or description (empty or null clears the description). */
export const updateCollectionBody = z.object({ name, description }).partial()

/**
 * Who the collection is shared with, replacing what was: the whole organisation (a role, or null
 * for nobody) and groups of the organisation, each with a role. Nothing shared: private.
 */
export const sharingBody = z.object({
  organizationRole: collectionRole.nullable(),
  groups: z
    .array(z.object({ groupId: z.string().min(1).max(64), role: collectionRole }))
    .max(COLLECTION_GROUPS_MAX, `At most ${COLLECTION_GROUPS_MAX} groups`)
    .refine((list) => new Set(list.map((g) => g.groupId)).size === list.length, 'Each group once'),
})

export const collectionParams = z.object({ id: z.string().min(1).max(64) })
export const collectionFileParams = z.object({ id: z.string().min(1).max(64), fileId: z.string().min(1).max(64) })
export const threadCollectionParams = z.object({ id: z.string().min(1).max(64), collectionId: z.string().min(1).max(64) })

export const collectionResponse = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  role: accessRole,
  owner: z.object({ id: z.string(), name: z.string() }),
  organizationRole: collectionRole.nullable(),
  groups: z.array(z.object({ id: z.string(), name: z.string(), role: collectionRole })),
  /** Files in the collection, and how many of them are processed and searchable. */
  files: z.number(),
  readyFiles: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export const collectionListResponse = z.array(collectionResponse)
export const collectionFileResponse = sourceResponse
export const collectionFileListResponse = z.array(sourceResponse)

/** A collection as a chat or agent shows it: enough to name it and say whether it can be searched. */
export const attachedCollectionResponse = z.object({ id: z.string(), name: z.string(), readyFiles: z.number() })
export const attachedCollectionListResponse = z.array(attachedCollectionResponse)

/** The groups of the organisation a collection can be shared with. */
export const shareTargetsResponse = z.object({ groups: z.array(z.object({ id: z.string(), name: z.string() })) })

export type CollectionView = z.infer<typeof collectionResponse>
export type AttachedCollection = z.infer<typeof attachedCollectionResponse>
