/**
 * The Bun entry: first the limit of requests at once (src/requests-at-once.ts, which may replace
 * this process before anything else loads), then the server's start (src/start.ts).
 */
import './requests-at-once'

await import('./start')
