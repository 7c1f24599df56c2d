// Once before the browser test files: the migrated database they all copy
// (e2e/pglite-template.ts).
import { prepareTemplate } from './pglite-template.ts'

export default function setup(): void {
  prepareTemplate()
}
