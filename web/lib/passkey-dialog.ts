/**
 * The error worth showing from a passkey ceremony: null when the person closed the browser's
 * passkey dialog (or it timed out), which WebAuthn reports as `NotAllowedError`.
 */
export const shownPasskeyError = (error: unknown) => (error instanceof Error && error.name === 'NotAllowedError' ? null : error)
