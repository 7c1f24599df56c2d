// A local SMTP server that keeps what it receives, for tests that prove mail
// really leaves through SMTP (nodemailer with SMTP_URL). Usable from API
// suites and from e2e tests (pass `url` as SMTP_URL to the spawned server):
//
//   const smtp = await startSmtpCapture()
//   ... SMTP_URL: smtp.url ...
//   const mail = await smtp.waitFor((m) => m.to === 'a@example.com')
//   const link = linkIn(mail, '/reset-password/do')
//   await smtp.close()
import type { AddressInfo } from 'node:net'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** One received mail, parsed. */
export interface CapturedMail {
  /** Envelope recipients, lower-cased. */
  to: string[]
  from: string
  subject: string
  text: string
  html: string
  /** Content-Language or <html lang> where the sender set it; '' otherwise. */
  lang: string
}

export interface SmtpCapture {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string
  port: number
  /** Every mail so far, oldest first. */
  messages: CapturedMail[]
  /** The first mail (already received or still to come) matching; rejects after timeoutMs. */
  waitFor(predicate: (m: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>
  close(): Promise<void>
  /** The next `count` mails are refused with a temporary error (451), as a busy server does. */
  refuseNext(count: number): void
}

const DEFAULT_WAIT_MS = 10_000

/** Starts the capture on a free port of 127.0.0.1 (plain SMTP, no auth, no TLS). */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: CapturedMail[] = []
  const waiters = new Set<() => void>()
  let refusals = 0
  const server = new SMTPServer({
    authOptional: true,
    // Not advertised, so nodemailer does not try to upgrade the connection.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refusals > 0) {
        refusals--
        const error = Object.assign(new Error('try again later'), { responseCode: 451 })
        callback(error)
        return
      }
      callback()
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const html = typeof parsed.html === 'string' ? parsed.html : ''
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html,
            lang: /<html[^>]*\blang="([^"]+)"/i.exec(html)?.[1] ?? '',
          })
          for (const wake of waiters) wake()
          callback()
        })
        .catch((e: unknown) => callback(e instanceof Error ? e : new Error(String(e))))
    },
  })
  const port = await new Promise<number>((resolve, reject) => {
    const net = server.listen(0, '127.0.0.1', () => {
      const address = net.address()
      if (address && typeof address === 'object') resolve((address satisfies AddressInfo).port)
      else reject(new Error('smtp capture: no port'))
    })
  })

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(predicate, timeoutMs = DEFAULT_WAIT_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate)
          if (!found) return false
          waiters.delete(wake)
          clearTimeout(timer)
          resolve(found)
          return true
        }
        const wake = () => void check()
        const timer = setTimeout(() => {
          waiters.delete(wake)
          reject(new Error(`smtp capture: no matching mail in ${timeoutMs} ms`))
        }, timeoutMs)
        waiters.add(wake)
        check()
      })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    refuseNext(count) {
      refusals = count
    },
  }
}

/** The first absolute link in a mail's text part whose path starts with `path`. */
export function linkIn(mail: { text: string }, path: string): URL {
  for (const match of mail.text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    const url = new URL(match[0])
    if (url.pathname.startsWith(path)) return url
  }
  throw new Error(`no ${path} link in mail:\n${mail.text}`)
}
