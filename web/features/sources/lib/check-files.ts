import { extensionOf, MAX_FILE_BYTES, MAX_SOURCES_PER_THREAD, SOURCE_EXTENSIONS as BY_KIND } from '../../../../src/api/sources/limits'

/** The file name endings the server takes, lower case. */
export const SOURCE_EXTENSIONS: readonly string[] = Object.values(BY_KIND).flat()

/** For a file input's `accept`: the endings, so that the browser's dialog offers the right files. */
export const SOURCE_ACCEPT = SOURCE_EXTENSIONS.map((e) => `.${e}`).join(',')

export type RefusedFile = { name: string; code: 'UNSUPPORTED_FILE_TYPE' | 'FILE_TOO_LARGE' | 'FILE_EMPTY' | 'TOO_MANY_SOURCES' }

/**
 * Splits chosen or dropped files into those worth uploading and those the server would refuse
 * anyway (wrong type, over 20 MB, empty, past 20 files in the chat), each with the error code
 * the server would answer. The server checks again, the content too.
 */
export function checkFiles<F extends { name: string; size: number }>(files: F[], alreadyAttached: number): { accepted: F[]; refused: RefusedFile[] } {
  const accepted: F[] = []
  const refused: RefusedFile[] = []
  for (const file of files) {
    const extension = extensionOf(file.name)
    const code: RefusedFile['code'] | null = !extension || !SOURCE_EXTENSIONS.includes(extension)
      ? 'UNSUPPORTED_FILE_TYPE'
      : file.size > MAX_FILE_BYTES
        ? 'FILE_TOO_LARGE'
        : file.size === 0
          ? 'FILE_EMPTY'
          : alreadyAttached + accepted.length >= MAX_SOURCES_PER_THREAD
            ? 'TOO_MANY_SOURCES'
            : null
    if (code) refused.push({ name: file.name, code })
    else accepted.push(file)
  }
  return { accepted, refused }
}
