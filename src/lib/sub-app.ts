import { Hono, type Context, type ErrorHandler, type Handler, type NotFoundHandler } from 'hono'
import type { AppEnv } from './context'
import { loadOnce } from './load-once'

type Vars = AppEnv['Variables']

/** What the app's middleware set for a request (dependencies, request id, logger, nonce), for the sub-app that answers it. */
const handedOver = new WeakMap<Request, Partial<Vars>>()

/** The request's Workers context (waitUntil), where there is one: Hono throws when asked on Bun. */
function executionContextOf(c: Context<AppEnv>) {
  try {
    return c.executionCtx
  } catch {
    return undefined
  }
}

/**
 * Mounts a sub-app with a protocol of its own (/v1, /scim/v2, /mcp) that loads with its first
 * request instead of at start (decision 0112). `paths` are the paths it answers below `prefix`
 * (`/*`: all of them). Once loaded, the sub-app runs in an app of its own, mounted at the same
 * prefix, that takes over what the app's middleware set for the request (its dependencies, request id,
 * logger) and answers what it throws through the app's own `onError` and `notFound`, as when it
 * was mounted in the app; its own error handler, where it has one, comes first, as before. Its
 * answer goes out through the app's context, with the headers the app's middleware set. What the
 * sub-app sets for a request stays its own: the app's middleware does not see it afterwards. A
 * load that fails is answered through `onError` too (in Kontor's error format, not the sub-app's),
 * and the next request asks for the module again.
 */
export function mountOnFirstUse<E extends AppEnv>(
  app: Hono<AppEnv>,
  prefix: string,
  paths: string[],
  load: () => Promise<Hono<E>>,
  answers: { onError: ErrorHandler<AppEnv>; notFound: NotFoundHandler<AppEnv> },
) {
  const loaded = loadOnce(async () => {
    const sub = await load()
    const own = new Hono<AppEnv>()
    own.use((c, next) => {
      const vars = handedOver.get(c.req.raw)
      if (vars) for (const [key, value] of Object.entries(vars)) c.set(key as keyof Vars, value as never)
      return next()
    })
    own.route(prefix, sub)
    own.onError(answers.onError)
    own.notFound(answers.notFound)
    return own
  })
  const handler: Handler<AppEnv> = async (c) => {
    const own = await loaded()
    handedOver.set(c.req.raw, c.var)
    const answer = await own.fetch(c.req.raw, c.env, executionContextOf(c))
    // Through the app's context, so that the headers its middleware set before the answer existed (the request id) are on it.
    return c.newResponse(answer.body, answer)
  }
  for (const path of paths) app.all(path === '/' ? prefix : `${prefix}${path}`, handler)
}
