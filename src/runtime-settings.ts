/**
 * Settings of Bun's runtime that take effect only when the process starts with them in its
 * environment. Loaded first by the Bun entries (src/main.ts, the single binary's, the demo's):
 * started without one of them, the process replaces itself (execve: the same process id, signals,
 * output and arguments) with one that has it, before anything else runs; a value set by the
 * operator is kept.
 *
 * - BUN_CONFIG_MAX_HTTP_REQUESTS (decision 0087): Bun's fetch runs at most 256 requests at once
 *   otherwise, and every streaming reply holds one (its model call): the 257th reply would wait,
 *   silently, for another to end.
 * - BUN_JSC_heapGrowthMaxIncrease and BUN_JSC_smallHeapGrowthFactor (decision 0117): how far
 *   JavaScriptCore lets its heap grow over what the last full collection left before it collects
 *   in full again. Bun's defaults let it reach about 3 times that on a machine with 16 GB of memory
 *   or more, and 2 times below; Kontor asks for 1.5 times on either, so that the objects a
 *   thousand streaming replies leave behind are freed before they pile up.
 * - BUN_JSC_maximumMutatorUtilization (decision 0129): the most of the time JavaScriptCore lets
 *   the program run while it collects concurrently (less as the collection goes on). With the 0.6
 *   Bun runs with on two cores, every streaming reply could be held back at least two fifths of
 *   the time while a collection ran (about once a second with 1,000 replies streaming); Kontor
 *   asks for 0.9.
 */
const RUNTIME_SETTINGS: Readonly<Record<string, string>> = {
  BUN_CONFIG_MAX_HTTP_REQUESTS: '4096',
  BUN_JSC_heapGrowthMaxIncrease: '0.5',
  BUN_JSC_smallHeapGrowthFactor: '1.5',
  BUN_JSC_maximumMutatorUtilization: '0.9',
}

const missing = Object.entries(RUNTIME_SETTINGS).filter(([name]) => !process.env[name])

if (missing.length > 0) {
  // The single binary names its embedded entry in argv[1]; it adds that itself when it starts.
  const compiled = process.argv[1]?.startsWith('/$bunfs/') ?? false
  try {
    process.execve!(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(compiled ? 2 : 1)], {
      ...process.env,
      ...Object.fromEntries(missing),
    })
  } catch (error) {
    const settings = missing.map(([name, value]) => `${name}=${value}`).join(' ')
    console.warn(`Kontor runs with Bun's defaults for ${missing.map(([name]) => name).join(', ')} (decisions 0087, 0117 and 0129): set ${settings} (${error instanceof Error ? error.message : error})`)
  }
}
export {}
