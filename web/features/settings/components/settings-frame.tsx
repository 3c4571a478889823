import type { ReactNode } from 'react'

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
