/**
 * The Bun entry. Bun's fetch runs at most 256 requests at once unless the process was started
 * with BUN_CONFIG_MAX_HTTP_REQUESTS, and every streaming reply holds one (its model call): the
 * 257th reply would wait, silently, for another to end. Started without the variable, the process
 * replaces itself (execve: the same process id, signals and output) with one that has it, before
 * anything else is loaded; a value set by the operator is kept (decision 0087).
 */
const MAX_HTTP_REQUESTS = '4096'

if (!process.env.BUN_CONFIG_MAX_HTTP_REQUESTS) {
  // The single binary names its embedded entry in argv[1]; it adds that itself when it starts.
  const compiled = process.argv[1]?.startsWith('/$bunfs/') ?? false
  try {
    process.execve!(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(compiled ? 2 : 1)], { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: MAX_HTTP_REQUESTS })
  } catch (error) {
    console.warn(`Kontor runs at most 256 model calls at once: set BUN_CONFIG_MAX_HTTP_REQUESTS=${MAX_HTTP_REQUESTS} (${error instanceof Error ? error.message : error})`)
  }
}
await import('./start')

export {}
