/** Resolves once `check` holds, asking every 25 ms; throws when it does not within `ms`. */
export async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 25))
  }
}
