
/** A saved prompt whose `{{variables}}` are to be filled in before it is used. */
export type PromptToFill = { title?: string; content: string; variables: string[] }
// The same pattern as the server's promptVariables (src/api/prompts/service.ts): a name of
// letters, digits, `_`, `-` or spaces, at most 40 characters, spaces around it ignored.
const VARIABLE = /\{\{\s*([\p{L}\p{N}_ -]{1,40}?)\s*\}\}/gu

/** `{{topic}}`-style variables of a prompt, each once, in order of first use. */
export function promptVariables(content: string): string[] {
  return [...new Set([...content.matchAll(VARIABLE)].map((m) => m[1]!))]
}

/**
 * The prompt with every `{{ name }}` replaced by its value. Values are inserted as they are, in
 * one pass: a value that itself looks like `{{x}}` or holds `$&` stays literal. Variables
 * without a value are left in place.
 */
export function fillPromptVariables(content: string, values: Record<string, string>): string {
  return content.replace(VARIABLE, (match, name: string) => (Object.hasOwn(values, name) ? values[name]! : match))
}
