import type { ReactNode } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card'

/** The centred card every public auth screen uses. */
export function AuthCard(props: { title: ReactNode; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 p-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-2 text-lg font-semibold">
          <span aria-hidden className="grid size-8 place-items-center rounded-lg bg-primary text-primary-foreground">K</span>
          Kontor
        </div>
        <Card>
          <CardHeader>
            <CardTitle>{props.title}</CardTitle>
            {props.description && <CardDescription>{props.description}</CardDescription>}
          </CardHeader>
          <CardContent>{props.children}</CardContent>
        </Card>
        {props.footer && <div className="mt-4 text-center text-sm text-muted-foreground">{props.footer}</div>}
      </div>
    </main>
  )
}
