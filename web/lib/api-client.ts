/** An error answer of the API: `{ code, message, status }` (status falls back to 500). */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly fields?: Record<string, string>,
    /** Values the message names (BUDGET_EXCEEDED: the limit and when it resets). */
    readonly details?: Record<string, string | number>,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError

export type Fetcher = (input: string, init?: RequestInit) => Promise<Response>

/** The ApiError of an error answer: its JSON body when there is one, else the HTTP status. */
export function toApiError(status: number, body: unknown, statusText = ''): ApiError {
  const data = body as Partial<ApiError> | null
  return new ApiError(data?.code ?? 'INTERNAL_ERROR', data?.message ?? statusText, data?.status ?? status ?? 500, data?.fields, data?.details)
}

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
    if (!res.ok) throw toApiError(res.status, await res.json().catch(() => null), res.statusText)
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
