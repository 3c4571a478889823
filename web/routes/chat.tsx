import { createRoute } from '@tanstack/react-router'
import { MessageSquare } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { ComingSoon } from '../components/coming-soon'
import { Route as appRoute } from './app'

type ChatSearch = { prompt?: string; modelId?: string; agentId?: string }

export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/chat',
  validateSearch: (s: Record<string, unknown>): ChatSearch => ({
    prompt: typeof s.prompt === 'string' ? s.prompt : undefined,
    modelId: typeof s.modelId === 'string' ? s.modelId : undefined,
    agentId: typeof s.agentId === 'string' ? s.agentId : undefined,
  }),
  component: ChatPage,
})

function ChatPage() {
  const { t } = useTranslation()
  return <ComingSoon icon={<MessageSquare />} title={t('nav.newChat')} text={t('soon.chat')} />
}
