/** Resolves once `check` holds, asking every 25 ms; throws when it does not within `ms`. */
export async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 25))
  }
}

/**
 * The first truthy value `check` gives, asking every `every` ms (a check that throws counts as not
 * yet); throws naming `what` when none came within `ms`.
 */
export async function until<T>(what: string, check: () => Promise<T | false | undefined>, ms = 60_000, every = 50): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = await check().catch(() => undefined)
    if (value) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, every))
  }
}
