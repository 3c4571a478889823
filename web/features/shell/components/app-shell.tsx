import { Outlet } from '@tanstack/react-router'

export function AppShell() {
  return (
    <div className="flex min-h-screen">
      <main className="flex-1">
        <Outlet />
      </main>
    </div>
  )
}
