import { AwsClient } from 'aws4fetch'
import { checkKey, toBytes, type FileStore } from './file-store'

export type S3Settings = {
  endpoint: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  region: string
}

/**
 * Files in S3-compatible object storage (AWS S3, MinIO, Cloudflare R2, Ceph …), addressed
 * path-style (`<endpoint>/<bucket>/<key>`) and signed with AWS Signature V4. Uses only fetch, so it
 * runs on Bun, Node and Workers.
 */
export function createS3FileStore(settings: S3Settings, options: { fetch?: typeof fetch } = {}): FileStore {
  const client = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    region: settings.region,
    service: 's3',
    retries: 2,
  })
  const base = `${settings.endpoint.replace(/\/$/, '')}/${encodeURIComponent(settings.bucket)}`
  const urlOf = (key: string) => `${base}/${checkKey(key).split('/').map(encodeURIComponent).join('/')}`
  const send = async (method: string, key: string, init: RequestInit = {}) => {
    const signed = await client.sign(urlOf(key), { method, ...init })
    return (options.fetch ?? fetch)(signed)
  }
  const failure = async (what: string, res: Response) =>
    new Error(`S3 ${what} failed: HTTP ${res.status} ${(await res.text().catch(() => '')).slice(0, 200)}`)

  return {
    async put(key, data, opts) {
      // PutObject needs the length up front; files are at most a few tens of MB.
      const body = await toBytes(data)
      const res = await send('PUT', key, {
        body: body as Uint8Array<ArrayBuffer>,
        headers: { 'content-type': opts?.contentType ?? 'application/octet-stream', 'content-length': String(body.byteLength) },
      })
      if (!res.ok) throw await failure('put', res)
      await res.body?.cancel()
    },
    async get(key) {
      const res = await send('GET', key)
      if (res.status === 404) {
        await res.body?.cancel()
        return null
      }
      if (!res.ok) throw await failure('get', res)
      return new Uint8Array(await res.arrayBuffer())
    },
    async delete(key) {
      const res = await send('DELETE', key)
      await res.body?.cancel()
      if (!res.ok && res.status !== 404) throw await failure('delete', res)
    },
  }
}
