import { z } from 'zod'
import { messageResponse } from '../threads/schema'

export const exportThreadParams = z.object({ id: z.string().min(1).max(64) })

export const exportThreadQuery = z.object({
  format: z.enum(['markdown', 'json'], { message: 'Format must be markdown or json' }).default('markdown'),
})

/** A chat as the JSON export writes it (`GET /threads/{id}/export?format=json`, and in the ZIP). */
export const chatExport = z.object({
  format: z.literal('kontor-chat'),
  version: z.literal(1),
  exportedAt: z.string(),
  chat: z.object({
    id: z.string(),
    title: z.string().nullable(),
    createdAt: z.string(),
    lastMessageAt: z.string(),
    pinned: z.boolean(),
    agent: z.object({ id: z.string(), name: z.string() }).nullable(),
  }),
  /** The files attached to the chat (their contents are in the ZIP of all data, under `files/`). */
  files: z.array(
    z.object({ id: z.string(), name: z.string(), description: z.string().nullable(), fileName: z.string(), mimeType: z.string(), size: z.number(), createdAt: z.string() }),
  ),
  /** Oldest first; a reply still being written has the text so far and status `streaming`. */
  messages: z.array(messageResponse),
})

export type ChatExport = z.infer<typeof chatExport>

/** The table of contents of the ZIP of all data (`index.json`). */
export const exportIndex = z.object({
  format: z.literal('kontor-export'),
  version: z.literal(1),
  exportedAt: z.string(),
  user: z.object({ name: z.string(), email: z.string() }),
  chats: z.array(z.object({ id: z.string(), title: z.string().nullable(), json: z.string(), markdown: z.string(), files: z.array(z.string()) })),
  prompts: z.number(),
  agents: z.number(),
})

export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8'
export const JSON_TYPE = 'application/json; charset=utf-8'
export const ZIP_TYPE = 'application/zip'
