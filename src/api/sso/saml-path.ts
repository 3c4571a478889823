// Apart from the domain's routes: the app reads it for every request, before any domain is loaded.
/** Where SAML identity providers post their responses (below it, the provider's id). */
export const SAML_ACS_ROUTE = '/api/auth/sso/saml2/sp/acs/'
