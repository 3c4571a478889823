import { createElement, useEffect, useState, useSyncExternalStore, type ComponentType } from 'react'

/**
 * A module that loads on first use (decision 0089): menus, popovers, dialogs and tooltips (Radix
 * with floating-ui) are not among a page's first scripts. `use()` gives the module once it has
 * arrived, and nothing while hydrating: the server rendered without it.
 */
export type OnDemand<M> = {
  load: () => Promise<void>
  use: () => M | undefined
  loaded: () => boolean
  /** The module if it has arrived, and the subscription to its arrival: for a hook of one's own (useSyncExternalStore). */
  get: () => M | undefined
  subscribe: (listener: () => void) => () => void
}

export function onDemand<M>(load: () => Promise<M>): OnDemand<M> {
  let module: M | undefined
  let pending: Promise<void> | undefined
  const listeners = new Set<() => void>()
  const subscribe = (listener: () => void) => {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }
  return {
    // A failed fetch (offline) is asked again on the next use.
    load: () =>
      (pending ??= load().then(
        (m) => {
          module = m
          listeners.forEach((l) => l())
        },
        () => void (pending = undefined),
      )),
    use: () => useSyncExternalStore(subscribe, () => module, () => undefined),
    loaded: () => module !== undefined,
    get: () => module,
    subscribe,
  }
}

/**
 * A component whose code loads when it is first rendered, as with React.lazy (render it only when
 * it is needed). A failed fetch (offline, a chunk gone after an update) renders nothing and is
 * tried again while the component is rendered, after 1 s, 2 s, 4 s… (at most 30 s apart), so that
 * it shows once the network is back; React.lazy would hand the failure to the error boundary for
 * good. `preload` fetches it ahead, e.g. on hover.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> & { preload: () => Promise<void> } {
  const part = onDemand(load)
  function LazyPart(props: P) {
    const Component = part.use()
    const [tries, setTries] = useState(0)
    useEffect(() => {
      if (Component) return
      let live = true
      let retry: ReturnType<typeof setTimeout> | undefined
      void part.load().then(() => {
        if (live && !part.loaded()) retry = setTimeout(() => setTries((n) => n + 1), Math.min(1000 * 2 ** tries, 30_000))
      })
      return () => {
        live = false
        clearTimeout(retry)
      }
    }, [Component, tries])
    return Component ? createElement(Component, props) : null
  }
  return Object.assign(LazyPart, { preload: part.load })
}
