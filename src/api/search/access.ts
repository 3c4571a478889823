/** What other domains use of search: the caller's chats searched (Kontor's MCP server offers it as a tool); an ended reply indexed. */
export { indexLater } from './index-later'
export { searchChats } from './service'
