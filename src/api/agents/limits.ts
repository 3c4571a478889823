// Limits of the contract without zod, so the web can share them without loading zod's full API
// (docs/decisions/0043-smaller-client-bundles.md); schema.ts re-exports them.

export const AGENT_NAME_MAX = 100
export const AGENT_INSTRUCTIONS_MAX = 20_000

/** The built-in tools an agent may be given (the names of src/ai/tools `TOOLS`); a new agent gets every one. */
export const AGENT_TOOLS = ['internet_search', 'website_content', 'source_query', 'send_email'] as const
export type AgentTool = (typeof AGENT_TOOLS)[number]
