import { Moon, Sun } from '../../../components/icons'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { RadioCard, RadioGroup } from '../../../components/ui/radio-group'
import { errorMessage } from '../../../lib/error-message'
import { chooseTheme, readTheme, type Theme } from '../../../lib/theme'
import { useChangeTheme } from '../api'
import { SectionCard } from '../../../components/section-card'
import { SESSION_QUERY_KEY, type Me } from '../../../lib/session'

/**
 * Light or dark, stored in this browser and applied at once, and kept with the account so that the
 * member's other browsers take it on their next page load. A save that does not arrive (a reload
 * cuts it off) is made again on the next page (`useSaveUnsavedTheme`); until then this browser keeps its choice.
 */
export function ThemeSetting() {
  const { t } = useTranslation('settings')
  // The server cannot know the stored theme; the choice shows once the page is interactive.
  const [theme, setTheme] = useState<Theme | undefined>(undefined)
  useEffect(() => setTheme(readTheme()), [])

  const changeTheme = useChangeTheme()
  const memberId = useQueryClient().getQueryData<Me>(SESSION_QUERY_KEY)?.id

  const choose = (value: string) => {
    const next: Theme = value === 'dark' ? 'dark' : 'light'
    chooseTheme(next, memberId)
    setTheme(next)
    changeTheme.mutate(next, { onError: (error) => toast.error(errorMessage(t, error)) })
  }

  return (
    <SectionCard id="theme" title={t('general.theme')} description={t('general.themeHint')}>
      <RadioGroup value={theme ?? ''} onValueChange={choose} aria-label={t('general.theme')} className="grid-cols-2 sm:max-w-md">
        <RadioCard value="light">
          <Sun className="size-4 text-muted-foreground" aria-hidden />
          {t('general.light')}
        </RadioCard>
        <RadioCard value="dark">
          <Moon className="size-4 text-muted-foreground" aria-hidden />
          {t('general.dark')}
        </RadioCard>
      </RadioGroup>
    </SectionCard>
  )
}
