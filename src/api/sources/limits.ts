// Limits of the contract without zod, so the web can share them without loading zod's full API
// (docs/decisions/0043-smaller-client-bundles.md); schema.ts re-exports them.

/** Per file and per thread (reference: Sources). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024
export const MAX_SOURCES_PER_THREAD = 20
/** Files of one knowledge collection. */
export const MAX_SOURCES_PER_COLLECTION = 200
export const MAX_NAME_LENGTH = 200
export const MAX_DESCRIPTION_LENGTH = 1000

/** The file name endings of each kind of source (file-type.ts also checks what the bytes are). */
export const SOURCE_EXTENSIONS = {
  pdf: ['pdf'],
  docx: ['docx'],
  pptx: ['pptx'],
  xlsx: ['xlsx'],
  eml: ['eml'],
  msg: ['msg'],
  txt: ['txt', 'text', 'log'],
  md: ['md', 'markdown'],
  csv: ['csv'],
  html: ['html', 'htm'],
  png: ['png'],
  jpeg: ['jpg', 'jpeg'],
} as const

/** A presentation's type: its pages are slides. */
export const PPTX_MIME = 'application/vnd.openxmlformats-officedocument.presentationml.presentation'

/** A file name's ending, lower case, or undefined without one. */
export const extensionOf = (fileName: string) => /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase()
