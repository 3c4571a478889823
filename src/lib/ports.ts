/**
 * What the app's dependencies provide to services and to the routes in this folder, declared
 * here so that `src/lib` stays the floor: the implementations live in src/mail and src/storage and
 * are wired by src/deps.ts (the session reader, which needs the caller's type, is in context.ts).
 */

/** A rendered mail; `kind` (confirmEmail, resetPassword, invite) names it in the log, which never holds its body. */
export type Mail = { kind: string; to: string; subject: string; text: string; html: string }

/** Records every mail in the outbox and delivers it when a transport is configured (src/mail/mailer.ts). */
export type Mailer = { send(mail: Mail): Promise<void>; readonly delivers: boolean }

export type FileData = Uint8Array | ReadableStream<Uint8Array>

/**
 * Where uploaded files are kept: local disk on Bun (default), S3-compatible object storage by
 * configuration (any runtime: fetch only). Keys are relative paths of `[A-Za-z0-9._-]` segments.
 */
export interface FileStore {
  put(key: string, data: FileData, options?: { contentType?: string }): Promise<void>
  /** The file's bytes, or null when there is no such file. */
  get(key: string): Promise<Uint8Array | null>
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>
}

/**
 * Text recognition (OCR) of pictures of pages: scans and photos (src/ocr/tesseract.ts on the Bun
 * server; absent on Workers, where such files fail with SOURCE_OCR_UNAVAILABLE). Nothing of it is
 * loaded before a file needs it.
 */
export type TextRecognition = {
  /** Starts an engine for one file's pages; the caller closes it when the file is done (its memory goes with it). */
  open(): Promise<PageReader>
}

export type PageReader = {
  /** The text of a PNG or JPEG picture. */
  image(bytes: Uint8Array): Promise<string>
  /** The text of page `number` (from 1) of a PDF, drawn as a picture. */
  pdfPage(pdf: Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>>, number: number): Promise<string>
  /** Ends the engine; a recognition still running is cut off. */
  close(): Promise<void>
}
