import type { ContentfulStatusCode } from 'hono/utils/http-status'

/**
 * The closed set of error codes. Each has its HTTP status and the English message of the spec;
 * the web app shows its own translation of the code, never the server's text.
 */
export const ERRORS = {
  BAD_REQUEST: [400, 'The request could not be understood.'],
  VALIDATION_FAILED: [400, 'Some fields are invalid.'],
  INVALID_JSON: [400, 'The request body is not valid JSON.'],
  UNAUTHORIZED: [401, 'You need to sign in.'],
  INVALID_CREDENTIALS: [401, 'Invalid email or password'],
  PASSWORD_SIGN_IN_DISABLED: [403, 'Your organisation signs in with single sign-on. Please use "Continue with single sign-on".'],
  SSO_NOT_CONFIGURED: [404, 'Single sign-on is not configured for this address.'],
  SSO_DOMAIN_TAKEN: [409, 'This domain belongs to another organisation.'],
  SSO_DOMAIN_NOT_VERIFIED: [409, 'The TXT record was not found. DNS changes can take a while to show; please try again later.'],
  CURRENT_PASSWORD_INCORRECT: [400, 'Current password is incorrect'],
  TWO_FACTOR_REQUIRED: [403, 'Your organisation requires a second factor. Please set up an authenticator app or a passkey.'],
  INVALID_TWO_FACTOR_CODE: [401, 'The code is not valid. Please try again.'],
  TWO_FACTOR_SIGN_IN_EXPIRED: [401, 'The sign-in has expired. Please enter your e-mail and password again.'],
  TWO_FACTOR_ALREADY_ENABLED: [409, 'An authenticator app is already set up.'],
  TWO_FACTOR_NOT_ENABLED: [409, 'No authenticator app is set up.'],
  PASSKEY_FAILED: [400, 'The passkey could not be verified. Please try again.'],
  PASSKEY_NOT_FOUND: [404, 'Passkey not found'],
  RECENT_SIGN_IN_REQUIRED: [403, 'For this, please sign out and sign in again.'],
  INVALID_PASSWORD: [400, 'Invalid password. Must be at least 8 characters, uppercase, lowercase and numbers.'],
  INVALID_NAME: [400, 'Invalid name provided'],
  FORBIDDEN: [403, 'You are not allowed to do this.'],
  CSRF_REJECTED: [403, 'The request came from another site and was refused.'],
  EMAIL_NOT_VERIFIED: [403, 'Please confirm your e-mail address first.'],
  REGISTRATION_DISABLED: [403, 'Registration is disabled.'],
  EMAIL_PROVIDER_BLACKLISTED: [400, 'Email provider blacklisted. Please use your company email address.'],
  EMAIL_EXISTS: [409, 'Email already exists'],
  REGISTRATION_FAILED: [500, 'Registration failed'],
  INVALID_CONFIRMATION_LINK: [400, 'Invalid confirmation link.'],
  EMAIL_CONFIRMATION_FAILED: [500, 'Failed to send email confirmation'],
  INVALID_TOKEN: [400, 'Invalid token'],
  PASSWORD_RESET_FAILED: [500, 'Failed to reset password'],
  NOT_FOUND: [404, 'Not Found'],
  USER_NOT_FOUND: [404, 'User not found'],
  PROVIDER_NOT_FOUND: [404, 'This provider is not available.'],
  PROVIDER_NOT_PERMITTED: [409, 'This provider is not enabled for your organisation.'],
  PROVIDER_ALREADY_PERMITTED: [409, 'This provider is already enabled.'],
  MODEL_NOT_FOUND: [404, 'Model not found'],
  MODEL_ALREADY_PERMITTED: [409, 'This model is already enabled.'],
  NO_MODEL_FOUND: [404, 'No model found'],
  THREAD_NOT_FOUND: [404, 'Chat not found'],
  MESSAGE_NOT_FOUND: [404, 'Message not found'],
  SHARE_NOT_FOUND: [404, 'This shared chat does not exist or is no longer shared.'],
  TOO_MANY_PINNED: [409, 'At most 20 chats can be pinned. Unpin one before pinning another.'],
  AGENT_NOT_FOUND: [404, 'Agent not found'],
  PROMPT_NOT_FOUND: [404, 'Prompt not found'],
  API_KEY_NOT_FOUND: [404, 'API key not found'],
  SESSION_NOT_FOUND: [404, 'Session not found. It may have ended already.'],
  SCIM_TOKEN_NOT_FOUND: [404, 'SCIM token not found'],
  INVALID_API_KEY: [401, 'The API key is missing, wrong, revoked or expired.'],
  API_ACCESS_DISABLED: [403, 'API access is switched off for your organisation. Please ask an admin.'],
  SUBSCRIPTION_NOT_FOUND: [404, 'Subscription not found'],
  SUBSCRIPTION_EXISTS: [409, 'Subscription already exists'],
  SUBSCRIPTION_ALREADY_CANCELLED: [409, 'Subscription already cancelled'],
  SUBSCRIPTION_NOT_CANCELLED: [409, 'The subscription is not cancelled.'],
  SUBSCRIPTION_NOT_ACTIVE: [409, 'The subscription is cancelled. Reactivate it first.'],
  SUBSCRIPTION_LAPSED: [409, 'The subscription has ended and can no longer be reactivated. Please subscribe again.'],
  TOO_MANY_USED_SEATS: [409, 'Too many used seats'],
  SUBSCRIPTIONS_NOT_USED: [404, 'This instance does not use subscriptions.'],
  SUBSCRIPTION_REQUIRED: [402, 'You need to upgrade to a paid plan to use this feature.'],
  BUDGET_EXCEEDED: [429, 'The monthly budget is used up.'],
  BUDGET_NOT_FOUND: [404, 'Budget not found'],
  REPLY_IN_PROGRESS: [409, 'A reply is still being written. Wait for it or stop it first.'],
  NOTHING_TO_REGENERATE: [409, 'There is no reply to regenerate.'],
  MESSAGE_NOT_SENT: [500, 'Message could not be sent. Please refresh the page and try again.'],
  NOT_A_LANGUAGE_MODEL: [400, 'This model cannot be used for chats.'],
  NOT_AN_EMBEDDING_MODEL: [400, 'This model is not an embedding model.'],
  ENDPOINT_NOT_FOUND: [404, 'Endpoint not found'],
  INVALID_ENDPOINT_URL: [400, 'This address cannot be used for a model endpoint.'],
  MCP_SERVER_NOT_FOUND: [404, 'MCP server not found'],
  MCP_SERVER_NAME_TAKEN: [409, 'An MCP server with this name already exists.'],
  INVALID_MCP_SERVER_URL: [400, 'This address cannot be used for an MCP server.'],
  MCP_SERVER_UNREACHABLE: [502, 'The MCP server could not be reached or did not answer as an MCP server.'],
  MCP_TOOL_NOT_FOUND: [404, 'The MCP server does not offer this tool.'],
  GROUP_NOT_FOUND: [404, 'Group not found'],
  GROUP_NAME_TAKEN: [409, 'A group with this name already exists.'],
  LAST_ADMIN: [409, 'An organisation needs at least one admin.'],
  CANNOT_REMOVE_SELF: [409, 'You cannot remove yourself from the organisation.'],
  INVITE_NOT_FOUND: [404, 'Invite not found'],
  INVITE_NOT_POSSIBLE: [409, 'Invite not possible.'],
  INVITE_INVALID: [404, 'Your invitation link is invalid. Please contact the administrator of the organization.'],
  INVITE_ALREADY_ACCEPTED: [409, 'You have already accepted an invitation.'],
  INVITE_NOT_PENDING: [409, 'This invitation is no longer pending.'],
  USER_EXISTS: [409, 'User already exists'],
  SIGNED_IN_AS_OTHER_USER: [409, 'You are signed in as another user. Sign out first to accept this invitation.'],
  METHOD_NOT_ALLOWED: [405, 'Method not allowed.'],
  PAYLOAD_TOO_LARGE: [413, 'The request body is too large.'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'The request body must be JSON.'],
  TOO_MANY_LOGIN_ATTEMPTS: [429, 'Too many login attempts. Please wait a few minutes and try again.'],
  TOO_MANY_CONFIRMATION_EMAILS: [429, 'Too many confirmation email requests. Please wait a few minutes and try again.'],
  TOO_MANY_REQUESTS: [429, 'Too many requests. Please wait a few minutes and try again.'],
  INTERNAL_ERROR: [500, 'An unexpected error occurred'],
  SERVICE_UNAVAILABLE: [503, 'The service is temporarily unavailable.'],
  // Model providers (src/ai): the user's request did not fail because of them, so upstream failures are 502/504.
  PROVIDER_AUTH_FAILED: [502, 'The model provider rejected the API key. Please ask an admin to check the provider settings.'],
  PROVIDER_QUOTA_EXCEEDED: [502, 'The model provider account has no credit left. Please ask an admin to check the provider account.'],
  MODEL_NOT_FOUND_AT_PROVIDER: [502, 'The model provider does not offer this model. Please choose another model or ask an admin to check the model settings.'],
  PROVIDER_RATE_LIMITED: [429, 'The model provider is receiving too many requests. Please wait a moment and try again.'],
  PROVIDER_UNAVAILABLE: [502, 'Error fetching response'],
  PROVIDER_ADDRESS_REFUSED: [502, 'The model provider\'s address points into a private network, which this server does not reach. Please ask an admin to check the endpoint.'],
  PROVIDER_TIMEOUT: [504, 'The model provider did not answer in time. Please try again.'],
  PROVIDER_STREAM_INTERRUPTED: [502, 'The connection to the model provider broke off during the reply. Please try again.'],
  PROVIDER_BAD_RESPONSE: [502, 'The model provider sent an answer that could not be read. Please try again or choose another model.'],
  PROVIDER_REQUEST_REJECTED: [502, 'The model provider refused the request, for example because the conversation is too long for this model. Please start a new chat or choose another model.'],
  EMBEDDINGS_NOT_SUPPORTED: [400, 'This provider offers no embedding models. Please ask an admin to choose an embedding model of another provider.'],
  // Sources (files attached to a chat). The SOURCE_* codes are a failed source's `error`, not HTTP answers.
  SOURCE_NOT_FOUND: [404, 'File not found'],
  COLLECTION_NOT_FOUND: [404, 'Collection not found'],
  TOO_MANY_COLLECTION_FILES: [409, 'A collection can have at most 200 files. Remove one before adding another.'],
  FILE_TOO_LARGE: [413, 'The file is too large. Files can be at most 20 MB.'],
  FILE_EMPTY: [400, 'The file is empty.'],
  UPLOAD_INCOMPLETE: [400, 'The upload broke off before the file was complete. Please try again.'],
  TOO_MANY_SOURCES: [409, 'A chat can have at most 20 files. Remove one before adding another.'],
  UNSUPPORTED_FILE_TYPE: [415, 'This file type is not supported. Please upload a PDF, Word (DOCX), PowerPoint (PPTX), Excel (XLSX), e-mail (EML, MSG), text, Markdown, CSV, HTML or image (PNG, JPEG) file.'],
  EMBEDDING_MODEL_REQUIRED: [409, 'Files cannot be added because your organisation has no embedding model. Please ask an admin to choose one in the model settings.'],
  SOURCE_ENCRYPTED: [422, 'This PDF is protected with a password. Remove the protection and upload it again.'],
  SOURCE_UNREADABLE: [422, 'The file could not be read. It may be damaged.'],
  SOURCE_NO_TEXT: [422, 'No text was found in the file, not even by text recognition.'],
  SOURCE_OCR_UNAVAILABLE: [422, 'This file is a scan or a picture and needs text recognition, which this server does not offer. Please upload a file with a text layer.'],
  SOURCE_TOO_LARGE: [422, 'The file holds more content than can be processed (at most 2,000 pages or 3 million characters of text).'],
  SOURCE_PROCESSING_FAILED: [500, 'The file could not be processed. Please remove it and try again.'],
  // Tools in chats (src/ai/tools): MAX_ITERATIONS_REACHED ends a reply; TOOL_NOT_FOUND is a tool result, not an HTTP answer.
  MAX_ITERATIONS_REACHED: [500, 'Maximal number of iterations reached'],
  TOOL_NOT_FOUND: [404, 'Tool not found'],
} as const satisfies Record<string, readonly [ContentfulStatusCode, string]>

export type ErrorCode = keyof typeof ERRORS

export type ErrorBody = {
  code: ErrorCode
  message: string
  status: number
  fields?: Record<string, string>
  /** Values the message names (BUDGET_EXCEEDED: which limit, how much, when it resets), for the client's own translation. */
  details?: Record<string, string | number>
  requestId?: string
}

/** The one error type services throw; the app's error handler turns it into `{ code, message, status }`. */
export class AppError extends Error {
  readonly status: ContentfulStatusCode
  constructor(
    readonly code: ErrorCode,
    options: { message?: string; fields?: Record<string, string>; details?: Record<string, string | number>; retryAfter?: number } = {},
  ) {
    super(options.message ?? ERRORS[code][1])
    this.status = ERRORS[code][0]
    this.fields = options.fields
    this.details = options.details
    this.retryAfter = options.retryAfter
  }
  readonly fields?: Record<string, string>
  readonly details?: Record<string, string | number>
  readonly retryAfter?: number

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status, ...(this.fields && { fields: this.fields }), ...(this.details && { details: this.details }) }
  }
}

/** Throws the error of `code`; declared as a function returning never so that TypeScript narrows after a call. */
export function fail(code: ErrorCode, options?: ConstructorParameters<typeof AppError>[1]): never {
  throw new AppError(code, options)
}
