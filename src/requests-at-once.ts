/**
 * Bun's fetch runs at most 256 requests at once unless the process was started with
 * BUN_CONFIG_MAX_HTTP_REQUESTS, and every streaming reply holds one (its model call): the 257th
 * reply would wait, silently, for another to end. Loaded first by the Bun entries (src/main.ts,
 * the single binary's): started without the variable, the process replaces itself (execve: the
 * same process id, signals, output and arguments) with one that has it, before anything else
 * runs; a value set by the operator is kept (decision 0087).
 */
const REQUESTS_AT_ONCE = '4096'

if (!process.env.BUN_CONFIG_MAX_HTTP_REQUESTS) {
  // The single binary names its embedded entry in argv[1]; it adds that itself when it starts.
  const compiled = process.argv[1]?.startsWith('/$bunfs/') ?? false
  try {
    process.execve!(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(compiled ? 2 : 1)], {
      ...process.env,
      BUN_CONFIG_MAX_HTTP_REQUESTS: REQUESTS_AT_ONCE,
    })
  } catch (error) {
    console.warn(`Kontor runs at most 256 model calls at once: set BUN_CONFIG_MAX_HTTP_REQUESTS=${REQUESTS_AT_ONCE} (${error instanceof Error ? error.message : error})`)
  }
}

export {}
