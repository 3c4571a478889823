import { z } from 'zod/mini'

/*
 * What each tool puts in its result's `data` (src/ai/tools/*.ts). Items are checked one by one, and
 * loosely where older stored replies may lack a field, so that one odd item hides only itself.
 *
 * Written with zod/mini and kept apart from schema.ts: an open chat checks stored tool data with
 * these, and zod's full build added about 20 KB (gzip) to the chat's first scripts (decisions
 * 0043 and 0131). schema.ts re-exports them for the server and the tests.
 */

/** send_email: the draft the user edits and sends with a mailto link. */
export const emailDraft = z.object({ to: z.string(), subject: z.string(), body: z.string() })

/** internet_search: `{ results }`, each a searchResult. */
export const searchData = z.object({ results: z.array(z.unknown()) })
export const searchResult = z.object({ title: z.catch(z.string(), ''), url: z.string(), snippet: z.catch(z.string(), '') })

/** website_content: the page read. */
export const websiteData = z.object({ url: z.string(), title: z.string() })

/** A tool of an MCP server (named `<server>__<tool>`): its names, the images it returned (base64) and the resources it named (src/ai/mcp.ts). */
export const mcpData = z.object({
  server: z.string(),
  tool: z.string(),
  images: z.catch(z.array(z.object({ mimeType: z.string(), data: z.string() })), []),
  resources: z.catch(z.array(z.object({ uri: z.string(), name: z.optional(z.string()), mimeType: z.optional(z.string()) })), []),
})

/** source_query: `{ passages }`, each a sourcePassage (file name, pages, citation, text). */
export const passageData = z.object({ passages: z.array(z.unknown()) })
const page = z.catch(z.nullable(z.int()), null)
export const sourcePassage = z.object({
  sourceName: z.string(),
  /** The knowledge collection of the file; null (or missing, in older replies) for a file of the chat. */
  collectionName: z.catch(z.optional(z.nullable(z.string())), null),
  page,
  pageEnd: page,
  /** Read by OCR from a scan or picture; missing (false) in replies stored before OCR. */
  recognised: z.catch(z.optional(z.boolean()), false),
  headingPath: z.catch(z.string(), ''),
  citation: z.string(),
  /** Missing in replies stored before the passage text was kept for the chat. */
  text: z.catch(z.optional(z.string()), undefined),
})
