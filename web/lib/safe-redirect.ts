/** Only same-site paths are followed after sign-in; anything else goes to the chat. */
export function safeRedirect(target: string | undefined, fallback = '/chat') {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback
  return target
}
