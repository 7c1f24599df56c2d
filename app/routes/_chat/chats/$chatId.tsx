import { createFileRoute, Link, notFound, useNavigate } from '@tanstack/react-router'
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { MESSAGE_MAX } from '../../../../api/contract/rules/messages.ts'
import { m } from '../../../../messages/paraglide/messages.js'
import { useSession } from '../../../data/session.ts'
import { useChat } from '../../../data/useChats.ts'
import { type MessageRow, useCredits, useMessages } from '../../../data/useMessages.ts'
import { worker } from '../../../data/worker.ts'
import { daysAgo, formatDate, formatMoney, formatTime, localDay } from '../../../ui/format.ts'
import { mediaUrl } from '../../../ui/media.ts'
import { ReportDialog } from '../../../ui/ReportDialog.tsx'
import { useOnline } from '../../../ui/useOnline.ts'

const parseChatId = (raw: string): number | null =>
  /^[1-9][0-9]{0,15}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : null

/** Spec §2: /chats/{chatId} in the chat layout: one conversation, paid per message. */
export const Route = createFileRoute('/_chat/chats/$chatId')({
  beforeLoad: async (ctx) => {
    if (parseChatId(ctx.params.chatId) === null) throw notFound()
  },
  component: Chat,
})

// Messages group by the member's own calendar day (a message at 00:30 local
// time belongs to that day, whatever its UTC date).
function dayLabel(iso: string): string {
  const ago = daysAgo(iso)
  if (ago === 0) return m.chat_today()
  if (ago === 1) return m.chat_yesterday()
  return formatDate(iso, 'long')
}

function Chat() {
  const { chatId } = Route.useParams()
  const id = parseChatId(chatId) ?? 0
  const navigate = useNavigate()
  const { user } = useSession()
  // A conversation just started is not in the stored list yet: useChat refreshes it.
  const chat = useChat(id)
  const rows = useMessages(id)
  const credits = useCredits()
  const online = useOnline()
  const [older, setOlder] = useState<'idle' | 'loading' | 'done'>('idle')
  const [reporting, setReporting] = useState(false)
  const [alert, setAlert] = useState<string | null>(null)
  const list = useRef<HTMLOListElement>(null)
  const stick = useRef(true)
  const me = user?.profile.id
  const other = chat?.profile

  // New messages scroll into view while the reader is at the bottom; loading
  // older ones above keeps the reader's place.
  const count = rows?.length ?? 0
  const previousHeight = useRef(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the list grows
  useLayoutEffect(() => {
    const el = list.current
    if (!el) return
    if (stick.current) {
      el.scrollTop = el.scrollHeight
      // Off-screen messages are laid out lazily (content-visibility): scroll
      // again once their real heights are known.
      requestAnimationFrame(() => {
        el.scrollTop = el.scrollHeight
      })
    } else if (older === 'loading') el.scrollTop += el.scrollHeight - previousHeight.current
    previousHeight.current = el.scrollHeight
  }, [count])

  async function loadOlder() {
    if (older !== 'idle') return
    previousHeight.current = list.current?.scrollHeight ?? 0
    setOlder('loading')
    const res = await worker().loadOlderMessages(id)
    setOlder(res.ok && !res.value.more ? 'done' : 'idle')
  }

  function onScroll() {
    const el = list.current
    if (!el) return
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40
    if (el.scrollTop < 80) void loadOlder()
  }

  async function remove() {
    if (!window.confirm(m.chat_delete_confirm())) return
    const res = await worker().deleteChat(id)
    // Spec §8: a failed delete is told; the list reloads either way.
    if (!res.ok) setAlert(m.chat_delete_failed())
    else await navigate({ to: '/chats' })
  }

  async function block() {
    if (!other || !window.confirm(m.chat_block_confirm({ name: other.name }))) return
    const res = await worker().block(other.id)
    if (!res.ok) setAlert(m.error_generic())
    else await navigate({ to: '/chats' })
  }

  return (
    <main className="page page--narrow chat-page">
      <header className="chat-page__header">
        {other?.main_image ? (
          <img
            className="chat-list__photo"
            src={mediaUrl(other.main_image.thumb_filename)}
            alt=""
            width={48}
            height={48}
          />
        ) : (
          <span className="chat-list__photo" aria-hidden="true" />
        )}
        <div className="chat-page__who">
          <h1>{other ? m.chat_page_title({ name: other.name }) : m.chat_page_title_unknown()}</h1>
          {other && (
            <Link to="/members/$memberId" params={{ memberId: String(other.id) }}>
              {m.chat_profile_link()}
            </Link>
          )}
        </div>
        <div className="chat-page__actions">
          <button type="button" className="button button--quiet" onClick={() => setReporting(true)}>
            {m.chat_report()}
          </button>
          {/* Blocking names the member: it waits until the chat knows who that is. */}
          <button
            type="button"
            className="button button--quiet"
            disabled={!other}
            onClick={() => void block()}
          >
            {m.chat_block()}
          </button>
          <button type="button" className="button button--quiet" onClick={() => void remove()}>
            {m.chat_delete()}
          </button>
        </div>
      </header>
      {other?.fictional && (
        <p className="chat-page__fictional">{m.chat_fictional({ name: other.name })}</p>
      )}
      {alert && (
        <p role="alert" className="form__error">
          {alert}
        </p>
      )}
      <ol
        ref={list}
        className="chat-messages"
        aria-label={m.chat_messages_label()}
        aria-live="polite"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region keyboard users must reach to read older messages (WCAG 2.1.1)
        tabIndex={0}
        onScroll={onScroll}
      >
        {older === 'idle' && count >= 50 && (
          <li className="chat-messages__older">
            <button type="button" className="button button--quiet" onClick={() => void loadOlder()}>
              {m.chat_older()}
            </button>
          </li>
        )}
        {rows?.length === 0 && <li className="chat-messages__empty">{m.chat_no_messages()}</li>}
        {rows?.map((row, i) => (
          <MessageItem
            key={row.key}
            row={row}
            mine={row.from === me}
            online={online}
            newDay={i === 0 || localDay(rows[i - 1]!.sentAt) !== localDay(row.sentAt)}
          />
        ))}
      </ol>
      <Composer
        conversation={id}
        credits={credits?.credits}
        cost={credits?.message_cost}
        price={credits?.message_price ?? null}
        onSent={() => {
          stick.current = true
        }}
      />
      {reporting && other && <ReportDialog profile={other} onClose={() => setReporting(false)} />}
    </main>
  )
}

function MessageItem({
  row,
  mine,
  online,
  newDay,
}: {
  row: MessageRow
  mine: boolean
  online: boolean
  newDay: boolean
}) {
  // Over the member's send limit: still pending, and sent by the worker by
  // itself once the limit's window ends (sync/chats/messages.ts).
  const tooFast = row.status === 'pending' && row.error === 'rate_limited'
  return (
    <>
      {newDay && (
        <li className="chat-messages__day">
          <time dateTime={localDay(row.sentAt)}>{dayLabel(row.sentAt)}</time>
        </li>
      )}
      <li
        className={`message ${mine ? 'message--mine' : 'message--theirs'} message--${row.status}`}
      >
        {/* Text only: React escapes it, so markup a member writes stays text. */}
        <p className="message__text">{row.text}</p>
        <p className="message__meta">
          <time dateTime={row.sentAt}>{formatTime(row.sentAt)}</time>
          {row.status === 'pending' && !tooFast && (
            <span> · {online ? m.chat_pending() : m.chat_waiting_offline()}</span>
          )}
          {row.status === 'sent' && mine && (
            <span className="visually-hidden"> · {m.chat_sent()}</span>
          )}
        </p>
        {tooFast && (
          <p className="message__waiting" role="status">
            {row.retryAt === undefined
              ? m.chat_too_fast_soon()
              : m.chat_too_fast_at({ time: formatTime(row.retryAt) })}
          </p>
        )}
        {row.status === 'failed' && <FailedActions row={row} />}
      </li>
    </>
  )
}

function FailedActions({ row }: { row: MessageRow }) {
  const credits = row.error === 'insufficient_credits'
  return (
    <div className="message__failed" role="alert">
      <span>
        {credits
          ? m.chat_failed_credits()
          : row.error === 'blocked'
            ? m.chat_failed_blocked()
            : m.chat_failed()}
      </span>
      {credits && <a href="/credits">{m.chat_buy_credits()}</a>}
      <button
        type="button"
        className="button button--quiet"
        onClick={() => void worker().retryMessage(row.key)}
      >
        {m.chat_retry()}
      </button>
      <button
        type="button"
        className="button button--quiet"
        onClick={() => void worker().discardMessage(row.key)}
      >
        {m.chat_discard()}
      </button>
    </div>
  )
}

function Composer({
  conversation,
  credits,
  cost,
  price,
  onSent,
}: {
  conversation: number
  credits: number | undefined
  cost: number | undefined
  price: { costs: number; currency: string } | null
  onSent: () => void
}) {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const input = useRef<HTMLTextAreaElement>(null)
  useEffect(() => input.current?.focus(), [])

  async function send() {
    const body = text.trim()
    if (body.length === 0) return
    if (body.length > MESSAGE_MAX) {
      setError(m.chat_too_long({ max: MESSAGE_MAX }))
      return
    }
    setError(null)
    // The box empties now, not when the worker has stored the message: what
    // the member types next while it is being stored is theirs (clearing it
    // after the await wiped a second message typed quickly, and it was never
    // sent). Should storing fail, the text comes back, before anything typed
    // since.
    setText('')
    onSent()
    const res = await worker().sendMessage(conversation, body)
    if (!res.ok) {
      setText((typed) => (typed.trim() === '' ? body : `${body}\n${typed}`))
      setError(m.error_generic())
    }
  }

  function onKey(e: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends; Shift+Enter (and an input method composing) starts a new line.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault()
      void send()
    }
  }

  const money = price === null ? null : formatMoney(price.costs, price.currency)
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault()
        void send()
      }}
    >
      <label htmlFor="composer-text" className="visually-hidden">
        {m.chat_input_label()}
      </label>
      <textarea
        id="composer-text"
        ref={input}
        value={text}
        rows={2}
        maxLength={MESSAGE_MAX}
        placeholder={m.chat_input_label()}
        aria-describedby="composer-cost composer-hint"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKey}
      />
      <button type="submit" className="button" disabled={text.trim().length === 0}>
        {m.chat_send()}
      </button>
      <p id="composer-cost" className="composer__cost">
        {cost !== undefined && (
          <span>{money ? m.chat_cost_money({ cost, money }) : m.chat_cost({ cost })}</span>
        )}
        {credits !== undefined && (
          <span className="composer__balance" data-credits={credits}>
            {m.chat_balance({ credits })}
          </span>
        )}
      </p>
      <p id="composer-hint" className="visually-hidden">
        {m.chat_enter_hint()}
      </p>
      {error && (
        <p role="alert" className="form__error">
          {error}
        </p>
      )}
    </form>
  )
}
