/** The longest name of a SCIM token (the web form checks it too). */
export const SCIM_TOKEN_NAME_MAX = 100
