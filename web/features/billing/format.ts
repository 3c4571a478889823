import { useTranslation } from 'react-i18next'

/** Formats cents as money in the UI language ("€15.00", "15,00 €"). */
export function formatMoney(language: string, cents: number, currency: string) {
  return new Intl.NumberFormat(language, { style: 'currency', currency }).format(cents / 100)
}

/** Money formatting bound to the current UI language. */
export function useMoney() {
  const { i18n } = useTranslation()
  return (cents: number, currency: string) => formatMoney(i18n.language, cents, currency)
}

/** The yearly total of a number of seats: seats × monthly price × 12. */
export const yearlyCents = (seats: number, pricePerSeatMonthlyCents: number) => seats * pricePerSeatMonthlyCents * 12

/** Whole numbers in the UI language ("1,234", "1.234"). */
export function useCount() {
  const { i18n } = useTranslation()
  return (n: number) => new Intl.NumberFormat(i18n.language).format(n)
}
