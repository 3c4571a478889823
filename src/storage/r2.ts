import { checkKey, toBytes, type FileStore } from './file-store'

/**
 * The part of a Cloudflare R2 bucket binding (`env.FILES` on Workers) the store uses; declared
 * here so the app needs no Workers type package.
 */
export interface R2BucketBinding {
  put(key: string, value: ReadableStream | ArrayBuffer | ArrayBufferView | string | null, options?: { httpMetadata?: { contentType?: string } }): Promise<unknown>
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>
  delete(keys: string | string[]): Promise<void>
}

/** Whether a Workers binding looks like an R2 bucket (a misnamed or missing binding is not). */
export const isR2Bucket = (value: unknown): value is R2BucketBinding =>
  typeof value === 'object' && value !== null && ['put', 'get', 'delete', 'head'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function')

/**
 * Files in an R2 bucket through its Workers binding: no credentials, no signing, no egress. R2 takes a
 * stream only when its length is known up front (a request body, a FixedLengthStream), so other
 * streams are read into memory first; uploads arrive as bytes anyway (at most 20 MB).
 */
export function createR2FileStore(bucket: R2BucketBinding): FileStore {
  return {
    async put(key, data, options) {
      const body = data instanceof Uint8Array ? data : await toBytes(data)
      await bucket.put(checkKey(key), body, options?.contentType ? { httpMetadata: { contentType: options.contentType } } : undefined)
    },
    async get(key) {
      const object = await bucket.get(checkKey(key))
      return object ? new Uint8Array(await object.arrayBuffer()) : null
    },
    async delete(key) {
      // R2 deletes are idempotent: a missing key is no error.
      await bucket.delete(checkKey(key))
    },
  }
}
