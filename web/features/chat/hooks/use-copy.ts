import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'

/** Copies text to the clipboard; `copied` stays true for a moment after it worked. */
export function useCopy(resetAfterMs = 2000) {
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text)
    } catch {
      return false
    }
    setCopied(true)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setCopied(false), resetAfterMs)
    return true
  }
  return { copied, copy }
}

/** Copies a whole message and says so in a toast. */
export function useCopyMessage() {
  const { t } = useTranslation('chat')
  const { copied, copy } = useCopy()
  return {
    copied,
    copy: async (text: string) => {
      if (await copy(text)) toast.success(t('message.copied'))
      else toast.error(t('message.copyFailed'))
    },
  }
}
