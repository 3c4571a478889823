import { z } from 'zod/mini'

const isHttpUrl = (value: string) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol)

// Messages are i18n keys (validation namespace, or mcp: for this form's own). Limits mirror
// mcpServerBody in src/api/mcp-servers/schema.ts.
export const mcpServerSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'mcp:nameRequired'), z.maxLength(60, 'tooLong')),
  url: z.string().check(z.trim(), z.maxLength(2000, 'tooLong'), z.refine(isHttpUrl, 'mcp:urlInvalid')),
  bearerToken: z.string().check(z.trim(), z.maxLength(4000, 'tooLong')),
  headerName: z.string().check(z.trim(), z.maxLength(100, 'tooLong'), z.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]*$/, 'mcp:headerNameInvalid')),
  headerValue: z.string().check(z.maxLength(4000, 'tooLong'), z.regex(/^[^\r\n]*$/, 'mcp:headerValueInvalid')),
})
export type McpServerFormInput = z.input<typeof mcpServerSchema>
export type McpServerValues = z.output<typeof mcpServerSchema>

/** The server's field names as this form's fields, with the message shown for each. */
export const MCP_SERVER_FIELDS: Record<string, [keyof McpServerFormInput, string]> = {
  name: ['name', 'mcp:nameRequired'],
  url: ['url', 'mcp:urlInvalid'],
  bearerToken: ['bearerToken', 'tooLong'],
  'headers.0.name': ['headerName', 'mcp:headerNameInvalid'],
  'headers.0.value': ['headerValue', 'mcp:headerValueInvalid'],
}
