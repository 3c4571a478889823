const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const
export type LogLevel = keyof typeof LEVELS
type Fields = Record<string, unknown>

export type Logger = {
  debug(msg: string, fields?: Fields): void
  info(msg: string, fields?: Fields): void
  warn(msg: string, fields?: Fields): void
  error(msg: string, fields?: Fields): void
  child(fields: Fields): Logger
}

/** Structured JSON lines on stdout/stderr: one object per event, so any log shipper can read them. */
export function createLogger(level: LogLevel, base: Fields = {}): Logger {
  const min = LEVELS[level]
  const write = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Fields) => {
    if (LEVELS[lvl] < min) return
    const entry = { time: new Date().toISOString(), level: lvl, msg, ...base, ...fields }
    // Most lines (an access line per request) hold only plain values: no replacer to call per key.
    const line = hasObjects(fields) || hasObjects(base) ? JSON.stringify(entry, errorReplacer) : JSON.stringify(entry)
    if (lvl === 'error' || lvl === 'warn') console.error(line)
    else console.log(line)
  }
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }),
  }
}

function hasObjects(fields: Fields | undefined) {
  for (const key in fields) if (typeof fields[key] === 'object' && fields[key] !== null) return true
  return false
}

function errorReplacer(_key: string, value: unknown) {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack, cause: value.cause }
  return value
}
