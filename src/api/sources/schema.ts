import { z } from 'zod'

/** Per file and per thread (reference: Sources). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024
export const MAX_SOURCES_PER_THREAD = 20
export const MAX_NAME_LENGTH = 200
export const MAX_DESCRIPTION_LENGTH = 1000

/** The file name endings of each kind of source (file-type.ts also checks what the bytes are). */
export const SOURCE_EXTENSIONS = {
  pdf: ['pdf'],
  docx: ['docx'],
  txt: ['txt', 'text', 'log'],
  md: ['md', 'markdown'],
  csv: ['csv'],
  html: ['html', 'htm'],
} as const

/** A file name's ending, lower case, or undefined without one. */
export const extensionOf = (fileName: string) => /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase()

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

export type SourceView = z.infer<typeof sourceResponse>
