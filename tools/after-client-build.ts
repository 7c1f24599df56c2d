import type { Plugin, ResolvedConfig } from 'vite'

/**
 * A build-only Vite plugin that runs `run` once the browser build has
 * written its bundle (not after an SSR build or another environment's), in
 * plugin order with the other `post` closeBundle hooks.
 */
export function afterClientBuild(
  name: string,
  run: (config: ResolvedConfig) => Promise<void>,
): Plugin {
  let config: ResolvedConfig
  return {
    name,
    apply: 'build',
    configResolved(resolved) {
      config = resolved
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (config.build.ssr) return
        if (this.environment !== undefined && this.environment.name !== 'client') return
        await run(config)
      },
    },
  }
}
