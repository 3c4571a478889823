import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { inflateRawSync } from 'node:zlib'
import { XMLValidator } from 'fast-xml-parser'
import * as samlify from 'samlify'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/saml/${name}`, import.meta.url), 'utf8')
/** The test identity provider's signing key and certificate (self-signed, for tests only). */
export const SAML_IDP_CERT = fixture('idp-cert.pem')
const SAML_IDP_KEY = fixture('idp-key.pem')
/** Another key: a response signed with it is a forgery for Kontor. */
const OTHER_KEY = fixture('other-key.pem')
const OTHER_CERT = fixture('other-cert.pem')

// samlify reads no message before a schema validator is set: the same well-formedness check
// better-auth's SSO plugin sets (where the app runs in this process, this sets it again, alike).
samlify.setSchemaValidator({
  async validate(xml: string) {
    if (XMLValidator.validate(xml, { allowBooleanAttributes: true }) === true) return 'SUCCESS_VALIDATE_XML'
    throw 'ERR_INVALID_XML'
  },
})

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'

/** What the identity provider posts back to Kontor's assertion consumer service. */
export type SamlPost = { acs: string; SAMLResponse: string; RelayState: string }

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/**
 * A SAML 2.0 identity provider built with `samlify` on 127.0.0.1: it reads Kontor's AuthnRequest
 * (HTTP-Redirect binding) and answers with a signed assertion (HTTP-POST binding) for any address
 * typed on its sign-in page. The service provider's metadata is read from its entity ID, which is
 * Kontor's metadata URL. Tests without a browser call `respond` directly.
 */
export async function startSamlIdp(opts: { spMetadata?: (entityId: string) => Promise<string> } = {}) {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const entityId = `${base}/metadata`
  const settings = {
    entityID: entityId,
    signingCert: SAML_IDP_CERT,
    singleSignOnService: [{ Binding: REDIRECT, Location: `${base}/sso` }],
    nameIDFormat: [EMAIL_FORMAT],
    wantAuthnRequestsSigned: false,
  }
  const idp = samlify.IdentityProvider({ ...settings, privateKey: SAML_IDP_KEY })
  const forger = samlify.IdentityProvider({ ...settings, privateKey: OTHER_KEY, signingCert: OTHER_CERT })
  const spMetadata = opts.spMetadata ?? (async (url: string) => (await fetch(url)).text())

  /** The signed response to the AuthnRequest in `url` (Kontor's redirect to this provider) for `email`. */
  async function respond(url: string, email: string, how: { forged?: boolean; unsigned?: boolean; spMetadataXml?: string } = {}): Promise<SamlPost> {
    const query = Object.fromEntries(new URL(url).searchParams)
    const issuer = requestIssuer(query.SAMLRequest!)
    let metadata = how.spMetadataXml ?? (await spMetadata(issuer))
    // samlify signs the assertion because Kontor's metadata wants it signed.
    if (how.unsigned) metadata = metadata.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"')
    const sp = samlify.ServiceProvider({ metadata })
    const request = await idp.parseLoginRequest(sp, 'redirect', { query })
    const signer = how.forged ? forger : idp
    const response = (await signer.createLoginResponse(sp, { extract: request.extract }, 'post', { email }, { relayState: query.RelayState })) as {
      context: string
      entityEndpoint: string
      relayState?: string
    }
    // Unsigned: without the assertion's signature and with the message's signature taken off too.
    const SAMLResponse = how.unsigned
      ? Buffer.from(Buffer.from(response.context, 'base64').toString('utf8').replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, '')).toString('base64')
      : response.context
    return { acs: response.entityEndpoint, SAMLResponse, RelayState: response.relayState ?? query.RelayState ?? '' }
  }

  server.on('request', async (req, res) => {
    const url = new URL(req.url ?? '/', base)
    try {
      if (url.pathname === '/metadata') {
        res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(idp.getMetadata())
      } else if (url.pathname === '/sso' && req.method === 'GET') {
        // The provider's sign-in page: the address typed becomes the assertion's subject.
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
          `<!doctype html><html><body><h1>Test identity provider</h1><form method="post" action="/sso">` +
            `<input type="hidden" name="request" value="${escapeHtml(url.toString())}">` +
            `<label>E-mail <input name="email" type="email"></label><button type="submit">Sign in</button></form></body></html>`,
        )
      } else if (url.pathname === '/sso' && req.method === 'POST') {
        let body = ''
        for await (const chunk of req) body += chunk
        const form = new URLSearchParams(body)
        const post = await respond(form.get('request') ?? '', form.get('email') ?? '')
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
          `<!doctype html><html><body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(post.acs)}">` +
            `<input type="hidden" name="SAMLResponse" value="${escapeHtml(post.SAMLResponse)}">` +
            `<input type="hidden" name="RelayState" value="${escapeHtml(post.RelayState)}"><noscript><button>Continue</button></noscript></form></body></html>`,
        )
      } else {
        res.writeHead(404).end()
      }
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error))
    }
  })

  return {
    entityId,
    ssoUrl: `${base}/sso`,
    metadataUrl: entityId,
    metadata: idp.getMetadata() as string,
    respond,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The issuer (the service provider's entity ID) of a deflated, base64 AuthnRequest. */
function requestIssuer(samlRequest: string): string {
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8')
  const issuer = xml.match(/<(?:\w+:)?Issuer[^>]*>([^<]+)</)?.[1]
  if (!issuer) throw new Error('AuthnRequest without an issuer')
  return issuer.replaceAll('&amp;', '&')
}
