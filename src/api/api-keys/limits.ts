/** Limits of API keys, shared with the web app's form (which must not load the server's zod schemas). */
export const API_KEY_NAME_MAX = 64
/** How long a key may live, in days (better-auth's plugin refuses more than a year). */
export const API_KEY_EXPIRY_DAYS_MAX = 365
