import type { Logger } from '../../src/lib/logger'

type Level = 'debug' | 'info' | 'warn' | 'error'
export type LogEntry = { level: Level; msg: string }

/**
 * Records what is logged through `logger` and every logger made from it (each request's is its
 * child), beside logging it as before; `restore` ends the recording.
 */
export function recordLogs(logger: Logger) {
  const entries: LogEntry[] = []
  const original = { ...logger }
  const recording = (inner: Logger): Partial<Logger> => ({
    ...Object.fromEntries((['debug', 'info', 'warn', 'error'] as const).map((level) => [level, (msg: string, fields?: Record<string, unknown>) => {
      entries.push({ level, msg })
      inner[level](msg, fields)
    }])),
    child: (fields) => {
      const child = inner.child(fields)
      return { ...child, ...recording(child) } as Logger
    },
  })
  Object.assign(logger, recording(original))
  return {
    entries,
    /** The messages logged at warn or error level. */
    problems: () => entries.filter((e) => e.level === 'warn' || e.level === 'error').map((e) => e.msg),
    restore: () => void Object.assign(logger, original),
  }
}
