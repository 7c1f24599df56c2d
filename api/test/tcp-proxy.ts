// A TCP proxy in front of PostgreSQL that a test can cut and restore, to play
// a database restart without touching the shared server: stop() drops every
// connection and refuses new ones, start() listens again on the same port.
import { connect, createServer, type Server, type Socket } from 'node:net'

export interface TcpProxy {
  port: number
  start(): Promise<void>
  stop(): Promise<void>
}

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(target.port, target.host)
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('close', () => sockets.delete(socket))
          socket.on('error', () => undefined)
        }
        client.pipe(upstream).pipe(client)
        client.on('close', () => upstream.destroy())
        upstream.on('close', () => client.destroy())
      })
      s.once('error', reject)
      s.listen(port, '127.0.0.1', () => {
        const address = s.address()
        if (address && typeof address === 'object') port = address.port
        server = s
        resolve()
      })
    })

  await listen()
  return {
    get port() {
      return port
    },
    start: listen,
    async stop() {
      const s = server
      server = undefined
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()))
    },
  }
}
