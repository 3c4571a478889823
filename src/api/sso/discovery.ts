import { AppError } from '../../lib/errors'

type Discovery = {
  issuer?: unknown
  authorization_endpoint?: unknown
  token_endpoint?: unknown
  userinfo_endpoint?: unknown
  jwks_uri?: unknown
  token_endpoint_auth_methods_supported?: unknown
}

const refused = (message: string) => new AppError('VALIDATION_FAILED', { fields: { issuer: message } })
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined)

/**
 * Reads the issuer's discovery document (OpenID Connect Discovery 1.0) through the guarded
 * outbound client and returns the endpoints the plugin needs, so sign-ins do not fetch it again.
 * A document for another issuer, or without the endpoints, is refused like an unreachable one.
 */
export async function discoverIssuer(fetcher: typeof fetch, issuer: string) {
  const base = issuer.replace(/\/+$/, '')
  let doc: Discovery
  try {
    const response = await fetcher(`${base}/.well-known/openid-configuration`, { headers: { accept: 'application/json' } })
    if (!response.ok) throw refused(`The discovery document could not be read (HTTP ${response.status})`)
    doc = (await response.json()) as Discovery
  } catch (error) {
    if (error instanceof AppError) throw error
    throw refused('The discovery document could not be read')
  }
  if (str(doc.issuer)?.replace(/\/+$/, '') !== base) throw refused('The discovery document names another issuer')
  const authorizationEndpoint = str(doc.authorization_endpoint)
  const tokenEndpoint = str(doc.token_endpoint)
  const jwksEndpoint = str(doc.jwks_uri)
  if (!authorizationEndpoint || !tokenEndpoint || !jwksEndpoint) throw refused('The discovery document lacks the authorization, token or key endpoint')
  const methods = Array.isArray(doc.token_endpoint_auth_methods_supported) ? doc.token_endpoint_auth_methods_supported : []
  return {
    issuer: str(doc.issuer)!,
    config: {
      discoveryEndpoint: `${base}/.well-known/openid-configuration`,
      authorizationEndpoint,
      tokenEndpoint,
      jwksEndpoint,
      userInfoEndpoint: str(doc.userinfo_endpoint),
      tokenEndpointAuthentication: (methods.length === 0 || methods.includes('client_secret_basic') ? 'client_secret_basic' : 'client_secret_post') as
        | 'client_secret_basic'
        | 'client_secret_post',
    },
  }
}
