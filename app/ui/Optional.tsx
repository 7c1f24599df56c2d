import { Component, type ReactNode, Suspense } from 'react'

/**
 * A lazily loaded part the page can do without (the footer, a webcam tile):
 * nothing while its chunk loads, and left out if the chunk cannot load,
 * instead of taking the page down with it.
 */
export class Optional extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  render() {
    return this.state.failed ? null : <Suspense fallback={null}>{this.props.children}</Suspense>
  }
}
