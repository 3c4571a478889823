import { onDemand } from '../../../lib/on-demand'

/** The chat's menus (./chat-menus.tsx), loaded on first use. */
export const chatMenus = onDemand(() => import('./chat-menus'))
