import type { ReactNode } from 'react'
import { Card } from '../../../components/ui/card'

/** One titled block of a settings page. */
export function SettingsSection(props: { id: string; title: ReactNode; description?: ReactNode; children: ReactNode }) {
  return (
    <Card aria-labelledby={`${props.id}-title`} role="region" className="shadow-none">
      <div className="grid gap-1 border-b px-5 py-4">
        <h2 id={`${props.id}-title`} className="text-[15px] font-semibold leading-tight">
          {props.title}
        </h2>
        {props.description && <p className="text-sm text-muted-foreground">{props.description}</p>}
      </div>
      <div className="px-5 py-4">{props.children}</div>
    </Card>
  )
}

/** Page frame shared by the settings and admin layouts: title, tabs, then the tab's content. */
export function SettingsFrame(props: { title: ReactNode; tabs: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 sm:py-8">
      <h1 className="mb-4 text-xl font-semibold tracking-tight">{props.title}</h1>
      {props.tabs}
      <div className="pt-6">{props.children}</div>
    </div>
  )
}
