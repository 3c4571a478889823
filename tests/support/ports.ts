/** A TCP port on 127.0.0.1 that was free a moment ago (the system picked it), for a process a test starts. */
export function freePort(): number {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}
