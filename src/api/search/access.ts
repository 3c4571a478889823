/** What other domains use of search: the caller's chats searched (Kontor's MCP server offers it as a tool). */
export { searchChats } from './service'
