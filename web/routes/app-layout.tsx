import { ChatList } from '../features/chat/components/chat-list'
import { LazySearchDialog } from '../features/search/components/lazy-search-dialog'
import { useChatSearch } from '../features/search/hooks/use-chat-search'
import { useSaveUnsavedTheme } from '../features/settings/unsaved-theme'
import { AppShell } from '../features/shell/components/app-shell'

/** The signed-in layout: the shell, with the chat list and the chat search in its sidebar. */
export function AppLayout() {
  const search = useChatSearch()
  useSaveUnsavedTheme()
  return (
    <>
      <AppShell chatList={(props) => <ChatList {...props} />} search={{ show: search.show, shortcut: search.shortcut }} />
      <LazySearchDialog open={search.open} onOpenChange={search.setOpen} />
    </>
  )
}
