import { z } from 'zod'
import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from './limits'

export { MAX_FILE_BYTES, MAX_SOURCES_PER_THREAD, MAX_SOURCES_PER_COLLECTION, MAX_NAME_LENGTH, MAX_DESCRIPTION_LENGTH, SOURCE_EXTENSIONS, extensionOf } from './limits'

export const SOURCE_STATUSES = ['processing', 'ready', 'failed'] as const

/** The thread whose files a route reads or adds to. */
export const threadParams = z.object({ id: z.string().min(1).max(64) })
export const sourceParams = z.object({ id: z.string().min(1).max(64), sourceId: z.string().min(1).max(64) })

export const sourceResponse = z.object({
  id: z.string(),
  /** The name given at upload, else the file name. */
  name: z.string(),
  description: z.string().nullable(),
  fileName: z.string(),
  mimeType: z.string(),
  size: z.number(),
  status: z.enum(SOURCE_STATUSES),
  /** When failed: an error code (translated by the web app like any other). */
  error: z.string().nullable(),
  /** Pages of a PDF (or of a text file with form feeds); null for other files and while processing. */
  pages: z.number().nullable(),
  chunks: z.number(),
  createdAt: z.string(),
})

export const sourceListResponse = z.array(sourceResponse)

/** New details of a file: its name (1–200 characters) and description (up to 1,000, empty or null to clear). */
export const updateSourceBody = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(MAX_NAME_LENGTH, `Name must be at most ${MAX_NAME_LENGTH} characters`),
    description: z
      .string()
      .trim()
      .max(MAX_DESCRIPTION_LENGTH, `Description must be at most ${MAX_DESCRIPTION_LENGTH} characters`)
      .nullable()
      .transform((d) => d || null),
  })
  .partial()

export type SourceView = z.infer<typeof sourceResponse>

/** How far the organisation's ready files are embedded with its current embedding model. */
export const embeddingProgressResponse = z.object({
  /** The embedding model (`provider/model`), null without one. */
  model: z.string().nullable(),
  files: z.number(),
  filesDone: z.number(),
  chunks: z.number(),
  chunksDone: z.number(),
  /** Every ready file is embedded with the model (or there is no model). */
  done: z.boolean(),
})

export type EmbeddingProgress = z.infer<typeof embeddingProgressResponse>
