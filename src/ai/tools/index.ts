import { z } from 'zod'
import type { ToolDefinition } from '../index'
import { internetSearchTool } from './internet-search'
import { sendEmailTool } from './send-email'
import { sourceQueryTool } from './source-query'
import type { Tool, ToolContext } from './types'
import { websiteContentTool } from './website-content'

/**
 * Every tool a chat may offer, in the order the model sees them. A tool whose `available` says
 * no for a chat (e.g. internet_search without a configured backend, source_query in a chat
 * without sources) is neither offered nor run there.
 */
export const TOOLS: Tool[] = [internetSearchTool, websiteContentTool, sourceQueryTool, sendEmailTool]

/** The tools offered in one chat. */
export async function toolsFor(ctx: Omit<ToolContext, 'signal'>, tools: Tool[] = TOOLS): Promise<Tool[]> {
  const offered = await Promise.all(tools.map(async (t) => ((await (t.available?.(ctx) ?? true)) ? t : undefined)))
  return offered.filter((t): t is Tool => t !== undefined)
}

/** A tool as the model is told about it: name, description and its arguments as JSON Schema. */
export function toolDefinition(tool: Tool): ToolDefinition {
  if (tool.jsonSchema) return { name: tool.name, description: tool.description, parameters: tool.jsonSchema }
  const { $schema: _, ...parameters } = z.toJSONSchema(tool.parameters, { io: 'input' }) as Record<string, unknown>
  return { name: tool.name, description: tool.description, parameters }
}
