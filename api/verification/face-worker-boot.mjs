// The face worker's first module (face-match.ts starts it): plain JavaScript,
// so it loads under `node --import tsx`, under vitest and under any other
// runner alike. It registers tsx's loader in this thread (Node 20 does not
// apply a parent's --import before a worker's first module; bench/push-fanout.ts
// does the same) and then loads the worker itself, which is TypeScript.
import { register } from 'tsx/esm/api'

register()
await import('./face-worker.ts')
