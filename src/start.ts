/**
 * The Bun server's start (loaded by src/main.ts, which also sets the JIT's policy for it): with the
 * adapters it wires, the only place that touches the file system, Bun.* or node:* APIs. Reads
 * configuration once, then starts the server.
 */
import { developmentSecret, fail, stopOnSignals } from './entry'
import { parseConfig } from './lib/config'
import { startServer } from './server'

try {
  const config = parseConfig(process.env, developmentSecret(process.env.KONTOR_DATA_DIR || './data'))
  const running = await startServer(config)
  // Waiting for an unreachable libSQL server may end in a failure that is not an outage.
  running.ready.then(() => Bun.unsafe.setJITPolicy(1), fail)
  stopOnSignals(running)
} catch (error) {
  fail(error)
}
