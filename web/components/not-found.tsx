import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'

export function NotFound() {
  const { t } = useTranslation()
  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center gap-2 p-8 text-center">
      <h1 className="text-2xl font-semibold">{t('notFound')}</h1>
      <p className="text-sm text-muted-foreground">{t('notFoundHint')}</p>
      <Link to="/" className="mt-2 text-sm font-medium text-primary underline-offset-4 hover:underline">
        {t('backHome')}
      </Link>
    </main>
  )
}
