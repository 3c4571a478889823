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
