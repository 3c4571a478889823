/** An error answer of the API: `{ code, message, status }` (status falls back to 500). */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly fields?: Record<string, string>,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError

export type Fetcher = (input: string, init?: RequestInit) => Promise<Response>

/**
 * Typed client of /api. Error answers become ApiError; anything that is not an HTTP answer
 * (network down, aborted) is rethrown as it is.
 */
export function createApiClient(fetcher: Fetcher) {
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetcher(`/api${path}`, {
      method,
      credentials: 'include',
      // A form (a file upload) sets its own multipart content type and boundary.
      headers: body === undefined || body instanceof FormData ? undefined : { 'content-type': 'application/json' },
      body: body === undefined || body instanceof FormData ? (body as FormData | undefined) : JSON.stringify(body),
    })
    if (!res.ok) {
      const data = (await res.json().catch(() => null)) as Partial<ApiError> | null
      throw new ApiError(
        data?.code ?? 'INTERNAL_ERROR',
        data?.message ?? res.statusText,
        data?.status ?? res.status ?? 500,
        data?.fields,
      )
    }
    if (res.status === 204) return undefined as T
    return (await res.json()) as T
  }
  return {
    get: <T>(path: string) => request<T>('GET', path),
    post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, body),
    /** multipart/form-data, e.g. a file. */
    postForm: <T>(path: string, form: FormData) => request<T>('POST', path, form),
    put: <T>(path: string, body: unknown = {}) => request<T>('PUT', path, body),
    patch: <T>(path: string, body: unknown = {}) => request<T>('PATCH', path, body),
    delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, body),
  }
}

export type ApiClient = ReturnType<typeof createApiClient>
