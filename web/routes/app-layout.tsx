import { ChatList } from '../features/chat/components/chat-list'
import { AppShell } from '../features/shell/components/app-shell'

/** The signed-in layout: the shell, with the chat list in its sidebar. */
export function AppLayout() {
  return <AppShell chatList={(props) => <ChatList {...props} />} />
}
