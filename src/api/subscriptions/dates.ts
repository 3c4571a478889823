/**
 * Adds whole years in UTC. A 29 February start renews on 28 February in years without one,
 * and on 29 February again when there is one (the day is kept from the start, not carried).
 */
export function addYears(start: Date, years: number): Date {
  const y = start.getUTCFullYear() + years
  const m = start.getUTCMonth()
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  const d = Math.min(start.getUTCDate(), lastDay)
  return new Date(Date.UTC(y, m, d, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds()))
}

/** The first anniversary of `start` strictly after `now` (an uncancelled subscription renews itself). */
export function nextAnniversary(start: Date, now: Date): Date {
  let years = Math.max(1, now.getUTCFullYear() - start.getUTCFullYear())
  while (addYears(start, years) <= now) years++
  while (years > 1 && addYears(start, years - 1) > now) years--
  return addYears(start, years)
}
