import { Component, lazy, type ReactNode, Suspense } from 'react'
import { m } from '../../messages/paraglide/messages.js'

// The root's error and not-found pages, loaded when one shows, not with the
// shell every member's first /members downloads (docs/performance.md,
// "Main-thread JavaScript"). The service worker precaches their chunks like
// every other, so they show offline too.

const ErrorPageChunk = lazy(() =>
  import('./ErrorPage.tsx').then((mod) => ({ default: mod.ErrorPage })),
)
const NotFoundChunk = lazy(() =>
  import('./NotFound.tsx').then((mod) => ({ default: mod.NotFound })),
)

/** Should the page's chunk itself not load, a plain notice says what went wrong. */
class PlainOnError extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  render() {
    if (!this.state.failed) return <Suspense fallback={null}>{this.props.children}</Suspense>
    return (
      <main className="page">
        <p role="alert">{m.error_generic()}</p>
      </main>
    )
  }
}

export function LazyErrorPage(props: { status: number; message: string; chrome?: boolean }) {
  return (
    <PlainOnError>
      <ErrorPageChunk {...props} />
    </PlainOnError>
  )
}

export function LazyNotFound(props: { chrome?: boolean }) {
  return (
    <PlainOnError>
      <NotFoundChunk {...props} />
    </PlainOnError>
  )
}
