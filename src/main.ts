/**
 * The Bun entry: first the runtime settings (src/runtime-settings.ts, which may replace
 * this process before anything else loads), then the server's start (src/start.ts).
 */
import './runtime-settings'

// Code that runs once at start is not worth compiling (src/start.ts sets the usual policy back).
Bun.unsafe.setJITPolicy(100)
await import('./start')
