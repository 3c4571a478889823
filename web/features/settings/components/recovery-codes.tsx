import { Download } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { CopyField } from '../../../components/copy-field'
import { Button } from '../../../components/ui/button'

/** Recovery codes just made: shown this once, to copy or download; each signs in once instead of a code from the app. */
export function RecoveryCodes(props: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('settings')
  const text = props.codes.join('\n')
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }))
    const link = Object.assign(document.createElement('a'), { href: url, download: 'kontor-recovery-codes.txt' })
    link.click()
    URL.revokeObjectURL(url)
  }
  return (
    <div role="status" className="grid gap-3 rounded-md border border-primary/30 bg-primary/5 p-4">
      <div className="grid gap-1">
        <p className="font-medium">{t('twoFactor.codesTitle')}</p>
        <p className="text-sm text-muted-foreground">{t('twoFactor.codesText')}</p>
      </div>
      <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-1 font-mono text-sm">
        {props.codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <CopyField
        value={props.codes.join(' ')}
        label={t('twoFactor.codesTitle')}
        testId="recovery-codes-copy"
        copy={t('twoFactor.copy')}
        copied={t('twoFactor.copied')}
        copyFailed={t('twoFactor.copyFailed')}
      />
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={download}>
          <Download aria-hidden />
          {t('twoFactor.download')}
        </Button>
        <Button onClick={props.onDone}>{t('twoFactor.codesSaved')}</Button>
      </div>
    </div>
  )
}
