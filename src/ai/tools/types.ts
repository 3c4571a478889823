import type { z } from 'zod'
import type { AppDeps, SessionUser } from '../../lib/context'

/** What a tool knows about the chat it runs in. The thread is the caller's own (checked before the reply started). */
export type ToolContext = {
  deps: AppDeps
  caller: SessionUser
  threadId: string
  /** The chat's files, searched by source_query; the chat domain provides them (tools import no domain). */
  sources: ChatSources
  /** Aborted when the user stops the reply or closes the tab. */
  signal: AbortSignal
}

/** A passage found in a chat's files, with the citation the model is to use (src/api/chat/schema.ts `sourcePassage`). */
export type SourcePassage = {
  sourceId: string
  sourceName: string
  collectionName: string | null
  page: number | null
  pageEnd: number | null
  /** Read by OCR from a scan or picture: the chat marks its citation as recognised text. */
  recognised: boolean
  headingPath: string
  citation: string
  text: string
}

export type ChatSources = {
  /** Whether a file of the chat or of a collection it searches is processed and can be searched. */
  hasReady(): Promise<boolean>
  /** `content` for the model (passages with citations), `passages` for the chat to show. */
  search(query: string, signal: AbortSignal): Promise<{ content: string; passages: SourcePassage[] }>
  /** A passage of an earlier result (by its id) with the passages before and after it in its file. */
  neighbours(passageId: string): Promise<{ content: string; passages: SourcePassage[] }>
}

/** A tool's answer: `content` goes back to the model; `data` is structured output for the UI (e.g. an e-mail draft). */
export type ToolOutput = { content: string; data?: unknown }

/**
 * A tool the model may call. `parameters` validates the arguments and, as JSON Schema, tells
 * the model what to send; `available` decides per chat whether the tool is offered at all.
 */
export type Tool<Args = any> = {
  name: string
  description: string
  parameters: z.ZodType<Args>
  /** The arguments' JSON Schema as given elsewhere (an MCP server's listing); the model is told this instead of `parameters`. */
  jsonSchema?: Record<string, unknown>
  available?: (ctx: Omit<ToolContext, 'signal'>) => boolean | Promise<boolean>
  run: (args: Args, ctx: ToolContext) => Promise<ToolOutput>
}

/** Declares a tool with its argument type inferred from the schema. */
export const defineTool = <S extends z.ZodType>(tool: Tool<z.infer<S>> & { parameters: S }): Tool<z.infer<S>> => tool

/**
 * A failure the model should hear about and may work around (a refused address, a search
 * backend that is down). Its message is written for the model and shown in the chat as the
 * tool's error result; anything else a tool throws is logged and reported generically.
 */
export class ToolError extends Error {}
