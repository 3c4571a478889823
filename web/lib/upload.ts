import { toApiError } from './api-client'

export type UploadOptions = {
  /** The share of the body sent so far, 0–100, as the browser reports it. */
  onProgress?: (percent: number) => void
  signal?: AbortSignal
}

/**
 * POSTs a multipart form to /api with upload progress, which fetch cannot report: through
 * XMLHttpRequest, same origin with the session cookie. Error answers become ApiError as with the
 * API client, a failed connection a TypeError as with fetch; an abort rejects with an AbortError.
 */
export function postFormWithProgress<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    const aborted = () => reject(new DOMException('The upload was cancelled', 'AbortError'))
    if (options.signal?.aborted) return aborted()
    xhr.open('POST', `/api${path}`)
    xhr.withCredentials = true
    xhr.responseType = 'text'
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(Math.min(100, Math.floor((event.loaded / event.total) * 100)))
    }
    xhr.onload = () => {
      const body = parse(xhr.responseText)
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T)
      else reject(toApiError(xhr.status, body, xhr.statusText))
    }
    // As fetch does: a failed connection is a TypeError (errorMessage says so).
    xhr.onerror = () => reject(new TypeError('The connection failed'))
    xhr.onabort = aborted
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(form)
  })
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null
  } catch {
    return null
  }
}
