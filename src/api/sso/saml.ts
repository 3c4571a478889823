import type { z } from 'zod'
import { AppError } from '../../lib/errors'
import type { samlSettingsBody } from './schema'

/** Members are named by their e-mail address: the NameID format Kontor asks for. */
const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'

/** Whether the admin gave anything about the identity provider (saved without, a SAML provider keeps the one it has). */
export const samlInputGiven = (input: z.infer<typeof samlSettingsBody> | undefined) => Object.values(input ?? {}).some((v) => typeof v === 'string' && v.trim() !== '')

/** A SAML identity provider as Kontor stores it: its entity ID, sign-in URL, and metadata or certificate. */
export type SamlIdentityProvider = { entityId: string; ssoUrl: string; metadataXml?: string; certificate?: string; certificateValidTo: string | null }

const refused = (field: string, message: string) => new AppError('VALIDATION_FAILED', { fields: { [`saml.${field}`]: message } })

/** A certificate as PEM: pasted as PEM, or as the bare base64 that metadata files carry. */
export function certificatePem(text: string): string {
  const body = text
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]+=*$/.test(body) || body.length < 100) throw refused('certificate', 'Not a certificate (PEM or base64)')
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`
}

/** Until when a certificate is valid (its DER's `notAfter`); refuses what is no X.509 certificate. */
async function validTo(pem: string, field: string): Promise<string | null> {
  try {
    return certificateNotAfter(Uint8Array.from(atob(pem.replace(/-----[A-Z ]+-----|\s+/g, '')), (ch) => ch.charCodeAt(0))).toISOString()
  } catch {
    throw refused(field, 'The certificate could not be read')
  }
}

/**
 * The end of validity of a DER-encoded X.509 certificate: Certificate → TBSCertificate → (version,
 * serial, signature algorithm, issuer) → Validity → notAfter. A few lines of DER instead of
 * `node:crypto`, which the Workers build does not have.
 */
export function certificateNotAfter(der: Uint8Array): Date {
  const read = (offset: number, tag?: number) => {
    if (offset + 2 > der.length || (tag !== undefined && der[offset] !== tag)) throw new Error('not DER')
    let length = der[offset + 1]!
    let header = 2
    if (length & 0x80) {
      const bytes = length & 0x7f
      if (bytes < 1 || bytes > 3) throw new Error('not DER')
      length = 0
      for (let i = 0; i < bytes; i++) length = length * 256 + der[offset + 2 + i]!
      header += bytes
    }
    const start = offset + header
    if (start + length > der.length) throw new Error('not DER')
    return { tag: der[offset]!, start, end: start + length }
  }
  const tbs = read(read(0, 0x30).start, 0x30)
  let at = tbs.start
  const first = read(at)
  if (first.tag === 0xa0) at = first.end // explicit version
  at = read(at, 0x02).end // serial number
  at = read(at, 0x30).end // signature algorithm
  at = read(at, 0x30).end // issuer
  const validity = read(at, 0x30)
  const notAfter = read(read(validity.start).end)
  const text = String.fromCharCode(...der.subarray(notAfter.start, notAfter.end))
  const m = (notAfter.tag === 0x17 ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/ : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/).exec(text)
  if (!m || (notAfter.tag !== 0x17 && notAfter.tag !== 0x18)) throw new Error('no validity')
  const year = notAfter.tag === 0x17 ? (Number(m[1]) < 50 ? 2000 : 1900) + Number(m[1]) : Number(m[1])
  return new Date(Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])))
}

/**
 * Reads what the admin gave about the identity provider: metadata (pasted, or read once through
 * the guarded outbound client from its URL) or the entity ID, sign-in URL and signing certificate.
 * The metadata must name the provider, a sign-in URL for the HTTP-Redirect binding and a signing
 * certificate; anything else is refused on its field before something is stored.
 */
export async function readSamlIdentityProvider(fetcher: typeof fetch, input: z.infer<typeof samlSettingsBody>): Promise<SamlIdentityProvider> {
  let xml = input.metadataXml?.trim()
  let field = 'metadataXml'
  if (!xml && input.metadataUrl) {
    field = 'metadataUrl'
    try {
      const response = await fetcher(input.metadataUrl, { headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' } })
      if (!response.ok) throw refused(field, `The metadata could not be read (HTTP ${response.status})`)
      xml = (await response.text()).trim()
    } catch (error) {
      if (error instanceof AppError) throw error
      throw refused(field, 'The metadata could not be read')
    }
  }
  if (!xml) {
    const missing: Record<string, string> = {}
    if (!input.entityId) missing['saml.entityId'] = "The identity provider's entity ID is required (or its metadata)"
    if (!input.ssoUrl) missing['saml.ssoUrl'] = "The identity provider's sign-in URL is required (or its metadata)"
    if (!input.certificate?.trim()) missing['saml.certificate'] = "The identity provider's signing certificate is required (or its metadata)"
    if (Object.keys(missing).length) throw new AppError('VALIDATION_FAILED', { fields: missing })
    const certificate = certificatePem(input.certificate ?? '')
    return { entityId: input.entityId!, ssoUrl: input.ssoUrl!, certificate, certificateValidTo: await validTo(certificate, 'certificate') }
  }
  if (!/<(\w+:)?EntityDescriptor[\s>]/.test(xml)) throw refused(field, 'This is not SAML metadata (no EntityDescriptor)')
  const samlify = await import('samlify')
  let entityId: string | undefined
  let ssoUrl: string | undefined
  let signingCert: string | string[] | undefined
  let signedRequests = false
  try {
    const idp = samlify.IdentityProvider({ metadata: xml })
    entityId = idp.entityMeta.getEntityID()
    const sso = idp.entityMeta.getSingleSignOnService('redirect')
    ssoUrl = typeof sso === 'string' ? sso : undefined
    signingCert = idp.entityMeta.getX509Certificate('signing') as string | string[] | undefined
    signedRequests = idp.entityMeta.isWantAuthnRequestsSigned()
  } catch {
    throw refused(field, 'The metadata could not be read')
  }
  // Kontor sends its sign-in requests unsigned; a provider that demands signed ones would refuse every sign-in.
  if (signedRequests) throw refused(field, 'The identity provider wants signed sign-in requests (WantAuthnRequestsSigned); turn that off for Kontor')
  if (!entityId) throw refused(field, 'The metadata names no entity ID')
  if (!ssoUrl || !/^https?:\/\//.test(ssoUrl)) throw refused(field, 'The metadata has no sign-in URL for the HTTP-Redirect binding')
  const first = Array.isArray(signingCert) ? signingCert[0] : signingCert
  if (!first) throw refused(field, 'The metadata has no signing certificate')
  return { entityId, ssoUrl, metadataXml: xml, certificateValidTo: await validTo(certificatePem(first), field) }
}

/**
 * better-auth's SAML configuration for the provider: Kontor is the service provider with
 * `spEntityId`; assertions must be signed by the identity provider's certificate, and a member is
 * named by their address (the `email` attribute, else the NameID).
 */
export function samlPluginConfig(spEntityId: string, idp: SamlIdentityProvider) {
  return {
    issuer: spEntityId,
    entryPoint: idp.ssoUrl,
    cert: idp.certificate,
    callbackUrl: '/chat',
    idpMetadata: idp.metadataXml ? { metadata: idp.metadataXml } : { entityID: idp.entityId, cert: idp.certificate },
    wantAssertionsSigned: true,
    identifierFormat: EMAIL_NAME_ID,
    mapping: { email: 'email', name: 'displayName', firstName: 'givenName', lastName: 'surname' },
    // Kept for the settings screen.
    kontor: { entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificateValidTo: idp.certificateValidTo },
  }
}

export type StoredSamlConfig = ReturnType<typeof samlPluginConfig>
