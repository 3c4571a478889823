import { useCallback, useEffect, useState } from 'react'
import { applySidebarCollapsed, readSidebarCollapsed } from '../../../lib/theme'

/**
 * The desktop sidebar's collapsed state. The server renders it expanded; the head script has
 * already marked <html> when it is collapsed (CSS `rail:` styles follow that), and this state
 * catches up after hydration for what only React decides (tooltips, labels of the toggle).
 */
export function useSidebarCollapsed() {
  const [collapsed, setCollapsed] = useState(false)
  useEffect(() => setCollapsed(readSidebarCollapsed()), [])
  const toggle = useCallback(() => {
    const next = !readSidebarCollapsed()
    applySidebarCollapsed(next)
    setCollapsed(next)
  }, [])
  return { collapsed, toggle }
}
