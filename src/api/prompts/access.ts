/** What other domains use of the prompt library: the caller's prompts (Kontor's MCP server offers them). */
export { listPrompts, promptVariables } from './service'

// The same pattern as promptVariables, and as the web app's twin (web/lib/fill-variables.ts).
const VARIABLE = /\{\{\s*([\p{L}\p{N}_ -]{1,40}?)\s*\}\}/gu

/** The prompt with every `{{ name }}` replaced by its value, in one pass; variables without a value stay. */
export function fillPromptVariables(content: string, values: Record<string, string>): string {
  return content.replace(VARIABLE, (match, name: string) => (Object.hasOwn(values, name) ? values[name]! : match))
}
