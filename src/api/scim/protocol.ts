/** SCIM 2.0 wire format (RFC 7643/7644): schema URNs, errors, filters, lists and discovery documents. */

export const SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const

export const SCIM_CONTENT_TYPE = 'application/scim+json'
/** The most resources one page of a list carries (advertised as `filter.maxResults`). */
export const MAX_RESULTS = 200

export type ScimType = 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue'

/** An error answered in SCIM's own format: `{ schemas: [Error], status: "400", scimType, detail }`. */
export class ScimError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 500 | 501,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail)
  }
  toBody() {
    return { schemas: [SCHEMA.error], status: String(this.status), ...(this.scimType && { scimType: this.scimType }), detail: this.detail }
  }
}

export const invalid = (detail: string, scimType: ScimType = 'invalidValue') => new ScimError(400, detail, scimType)

/** `attribute eq "value"`: the filter SCIM clients use to look a resource up before creating it. */
export type Filter = { attribute: string; value: string | boolean | null }

export function parseFilter(filter: string | undefined, attributes: readonly string[]): Filter | undefined {
  if (filter === undefined || filter.trim() === '') return undefined
  const match = filter.match(/^\s*([A-Za-z][\w.:]*)\s+eq\s+("(?:[^"\\]|\\.)*"|true|false|null)\s*$/i)
  if (!match) throw invalid(`Unsupported filter: ${filter}. Use attribute eq "value".`, 'invalidFilter')
  const raw = match[2]!
  const value = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw.toLowerCase() === 'null' ? null : raw.toLowerCase() === 'true'
  // An attribute may come with its schema's URN in front (RFC 7644 §3.10).
  const name = match[1]!.replace(/^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i, '')
  const attribute = attributes.find((a) => a.toLowerCase() === name.toLowerCase())
  if (!attribute) throw invalid(`Filtering by ${name} is not supported. Supported: ${attributes.join(', ')}.`, 'invalidFilter')
  return { attribute, value }
}

/** `startIndex` (1-based) and `count` as RFC 7644 §3.4.2.4 reads them: out-of-range values are clamped. */
export function parsePage(query: Record<string, string | undefined>) {
  const number = (text: string | undefined, fallback: number) => {
    if (text === undefined || text === '') return fallback
    const n = Number(text)
    if (!Number.isInteger(n)) throw invalid(`Not a whole number: ${text}`)
    return n
  }
  const startIndex = Math.max(number(query.startIndex, 1), 1)
  const count = Math.min(Math.max(number(query.count, 100), 0), MAX_RESULTS)
  return { startIndex, count, offset: startIndex - 1 }
}

export const listResponse = <T>(resources: T[], totalResults: number, startIndex: number) => ({
  schemas: [SCHEMA.list],
  totalResults,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
})

/** The `schemas` of a body: every one must be known to the resource, and its core schema named. */
export function checkSchemas(body: Record<string, unknown>, core: string, allowed: readonly string[]) {
  const schemas = body.schemas
  if (!Array.isArray(schemas) || !schemas.every((s) => typeof s === 'string')) throw invalid('schemas must be a list of schema URNs', 'invalidSyntax')
  const unknown = schemas.filter((s) => !allowed.includes(s))
  if (unknown.length) throw invalid(`Unknown schema: ${unknown.join(', ')}`, 'invalidSyntax')
  if (!schemas.includes(core)) throw invalid(`schemas must include ${core}`, 'invalidSyntax')
}

export type PatchOperation = { op: 'add' | 'replace' | 'remove'; path?: string; value?: unknown }

export function parsePatch(body: Record<string, unknown>): PatchOperation[] {
  checkSchemas(body, SCHEMA.patch, [SCHEMA.patch])
  const ops = body.Operations
  if (!Array.isArray(ops) || ops.length === 0) throw invalid('Operations must be a non-empty list', 'invalidSyntax')
  return ops.map((o) => {
    if (!o || typeof o !== 'object') throw invalid('Each operation must be an object', 'invalidSyntax')
    const { op, path, value } = o as Record<string, unknown>
    const name = typeof op === 'string' ? op.toLowerCase() : ''
    if (name !== 'add' && name !== 'replace' && name !== 'remove') throw invalid(`Unknown op: ${String(op)}`, 'invalidSyntax')
    if (path !== undefined && typeof path !== 'string') throw invalid('path must be a string', 'invalidPath')
    if (name === 'remove' && !path) throw invalid('remove needs a path', 'noTarget')
    return { op: name, path: path || undefined, value }
  })
}

/** A boolean as directories send it (Entra: "False"). */
export function toBoolean(value: unknown, what: string): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true'
  throw invalid(`${what} must be true or false`)
}

export function toText(value: unknown, what: string, max = 200): string {
  if (typeof value !== 'string' || !value.trim()) throw invalid(`${what} must be a non-empty string`)
  if (value.length > max) throw invalid(`${what} must be at most ${max} characters`)
  return value.trim()
}

const attr = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
})

const SCHEMAS = [
  {
    id: SCHEMA.user,
    name: 'User',
    description: 'A member of the organisation. userName is the e-mail address.',
    attributes: [
      attr('userName', 'string', { required: true, uniqueness: 'server' }),
      attr('name', 'complex', { subAttributes: [attr('formatted', 'string'), attr('givenName', 'string'), attr('familyName', 'string')] }),
      attr('displayName', 'string'),
      attr('emails', 'complex', { multiValued: true, subAttributes: [attr('value', 'string'), attr('type', 'string'), attr('primary', 'boolean')] }),
      attr('active', 'boolean'),
      attr('groups', 'complex', { multiValued: true, mutability: 'readOnly', subAttributes: [attr('value', 'string', { mutability: 'readOnly' }), attr('display', 'string', { mutability: 'readOnly' })] }),
    ],
  },
  {
    id: SCHEMA.group,
    name: 'Group',
    description: 'A group of members of the organisation.',
    attributes: [
      attr('displayName', 'string', { required: true, uniqueness: 'server' }),
      attr('members', 'complex', { multiValued: true, subAttributes: [attr('value', 'string', { mutability: 'immutable' }), attr('display', 'string', { mutability: 'readOnly' })] }),
    ],
  },
]

/** ServiceProviderConfig, ResourceTypes and Schemas (RFC 7644 §4), with locations below `base`. */
export function discovery(base: string) {
  const meta = (resourceType: string, path: string) => ({ resourceType, location: `${base}${path}` })
  const resourceTypes = [
    { schemas: [SCHEMA.resourceType], id: 'User', name: 'User', endpoint: '/Users', schema: SCHEMA.user, schemaExtensions: [], meta: meta('ResourceType', '/ResourceTypes/User') },
    { schemas: [SCHEMA.resourceType], id: 'Group', name: 'Group', endpoint: '/Groups', schema: SCHEMA.group, schemaExtensions: [], meta: meta('ResourceType', '/ResourceTypes/Group') },
  ]
  const schemas = SCHEMAS.map((s) => ({ schemas: [SCHEMA.schema], ...s, meta: meta('Schema', `/Schemas/${s.id}`) }))
  const serviceProviderConfig = {
    schemas: [SCHEMA.serviceProviderConfig],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      { type: 'oauthbearertoken', name: 'Bearer token', description: 'A SCIM token made under Admin Settings → Security', primary: true },
    ],
    meta: meta('ServiceProviderConfig', '/ServiceProviderConfig'),
  }
  return { resourceTypes, schemas, serviceProviderConfig }
}
