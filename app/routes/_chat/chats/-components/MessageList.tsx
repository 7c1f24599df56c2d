import { useNavigate } from '@tanstack/react-router'
import { type RefObject, useEffect, useState } from 'react'
import { m } from '../../../../../messages/paraglide/messages.js'
import { type MessageRow, useCredits } from '../../../../data/useMessages.ts'
import { useSettings } from '../../../../data/useSettings.ts'
import { worker } from '../../../../data/worker.ts'
import { buyCreditsHref } from '../../../../features/credits/money.ts'
import { GiftBubble } from '../../../../features/gifts/GiftPicker.tsx'
import { useBlobUrl, VoiceBubble } from '../../../../features/voice/VoiceBubble.tsx'
import { daysAgo, formatDate, formatTime, localDay } from '../../../../ui/format.ts'
import { SeenMark } from '../../../../ui/SeenMark.tsx'

// Messages group by the member's own calendar day (a message at 00:30 local
// time belongs to that day, whatever its UTC date).
function dayLabel(iso: string): string {
  const ago = daysAgo(iso)
  if (ago === 0) return m.chat_today()
  if (ago === 1) return m.chat_yesterday()
  return formatDate(iso, 'long')
}

interface MessageListProps {
  listRef: RefObject<HTMLOListElement | null>
  onScroll: () => void
  /** The member moved the list themselves (not the page scrolling it). */
  onMemberScroll: () => void
  /** Scrolled up and something arrived: the "new messages" button shows. */
  pill: boolean
  onPill: () => void
  /** The first unread message of the opening: the "New" divider goes above it. */
  divider: string | undefined
  rows: MessageRow[] | undefined
  /** The signed-in member's id: their messages are theirs. */
  me: number | undefined
  online: boolean
  showOlder: boolean
  onOlder: () => void
  /** The member's choice blur_photos: the other member's photos show blurred until tapped. */
  blur: boolean
  /** Report one of the other member's messages (a photo, a voice message). */
  onReport: (message: number) => void
}

/**
 * The conversation's messages, oldest first, each day under its date; a
 * button loads older ones while there may be more.
 */
export function MessageList({
  listRef,
  onScroll,
  onMemberScroll,
  pill,
  onPill,
  divider,
  rows,
  me,
  online,
  showOlder,
  onOlder,
  blur,
  onReport,
}: MessageListProps) {
  const seenKey = rows && lastSeenKey(rows, me)
  return (
    <div className="chat-messages-box">
      <ol
        ref={listRef}
        className="chat-messages"
        aria-label={m.chat_messages_label()}
        aria-live="polite"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region keyboard users must reach to read older messages (WCAG 2.1.1)
        tabIndex={0}
        onScroll={onScroll}
        onWheel={onMemberScroll}
        onTouchStart={onMemberScroll}
        onPointerDown={onMemberScroll}
        onKeyDown={onMemberScroll}
      >
        {showOlder && (
          <li className="chat-messages__older">
            <button type="button" className="button button--quiet" onClick={onOlder}>
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
            seen={row.key === seenKey}
            online={online}
            newDay={i === 0 || localDay(rows[i - 1]!.sentAt) !== localDay(row.sentAt)}
            first={row.key === divider}
            blur={blur}
            onReport={onReport}
          />
        ))}
      </ol>
      {pill && (
        <button type="button" className="chat-messages__pill" onClick={onPill}>
          {m.chat_new_messages()} <span aria-hidden="true">↓</span>
        </button>
      )}
    </div>
  )
}

/** The member's newest message the other member read: "Seen" shows under it only. */
function lastSeenKey(rows: MessageRow[], me: number | undefined): string | undefined {
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!
    if (row.from === me && row.readAt) return row.key
  }
  return undefined
}

function MessageItem({
  row,
  mine,
  seen,
  online,
  newDay,
  first,
  blur,
  onReport,
}: {
  row: MessageRow
  mine: boolean
  seen: boolean
  online: boolean
  newDay: boolean
  /** The first unread message of the opening. */
  first: boolean
  blur: boolean
  onReport: (message: number) => void
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
      {first && <li className="chat-messages__new">{m.chat_new_divider()}</li>}
      <li
        className={`message ${mine ? 'message--mine' : 'message--theirs'} message--${row.status}`}
      >
        <MessagePhoto row={row} mine={mine} blur={blur} onReport={onReport} />
        <MessageVoice row={row} mine={mine} onReport={onReport} />
        {row.gift ? (
          <GiftBubble gift={row.gift} mine={mine} />
        ) : (
          /* Text only: React escapes it, so markup a member writes stays text. */
          row.text !== '' && <p className="message__text">{row.text}</p>
        )}
        <p className="message__meta">
          <time dateTime={row.sentAt}>{formatTime(row.sentAt)}</time>
          {row.status === 'pending' && !tooFast && (
            <span> · {online ? m.chat_pending() : m.chat_waiting_offline()}</span>
          )}
          {row.status === 'sent' && mine && !row.held && (
            <span className="visually-hidden"> · {m.chat_sent()}</span>
          )}
          {row.status === 'sent' && mine && row.held && (
            <span className="message__held"> · {m.chat_held()}</span>
          )}
        </p>
        {tooFast && (
          <p className="message__waiting" role="status">
            {row.retryAt === undefined
              ? m.chat_too_fast_soon()
              : m.chat_too_fast_at({ time: formatTime(row.retryAt) })}
          </p>
        )}
        {row.status === 'sent' && mine && row.held && (
          <p className="message__waiting">{m.chat_held_note()}</p>
        )}
        {row.status === 'failed' && <FailedActions row={row} />}
        {seen && row.readAt && <SeenMark readAt={row.readAt} />}
      </li>
    </>
  )
}

/** A photo message's photo, or its placeholder once hidden from this member. */
function MessagePhoto({
  row,
  mine,
  blur,
  onReport,
}: {
  row: MessageRow
  mine: boolean
  blur: boolean
  onReport: (message: number) => void
}) {
  if (row.photoHidden) return <p className="message__photo-hidden">{m.chat_photo_hidden()}</p>
  if (!row.photo && !row.localPhoto) return null
  return (
    <ChatPhoto
      src={row.photo ?? undefined}
      local={row.localPhoto}
      blurred={blur && !mine}
      onReport={!mine && row.id !== null ? () => onReport(row.id!) : undefined}
    />
  )
}

/** A voice message's player, or its placeholder once hidden from this member. */
function MessageVoice({
  row,
  mine,
  onReport,
}: {
  row: MessageRow
  mine: boolean
  onReport: (message: number) => void
}) {
  if (row.voiceHidden) return <p className="message__photo-hidden">{m.chat_voice_hidden()}</p>
  const voice = row.voice ?? row.localVoice
  if (!voice) return null
  return (
    <VoiceBubble
      src={row.voice?.url}
      local={row.voice ? undefined : row.localVoice?.blob}
      type={voice.type}
      durationMs={voice.duration_ms}
      onReport={!mine && row.id !== null ? () => onReport(row.id!) : undefined}
    />
  )
}

/**
 * A photo in a chat: the stored one (fetched from the chat's own route, the
 * two members only) or, while it waits in the outbox, the one on the device.
 * The other member's photos show blurred behind a "Show photo" button until
 * tapped, unless the member turned blurring off.
 */
function ChatPhoto({
  src,
  local,
  blurred,
  onReport,
}: {
  src: string | undefined
  local: Blob | undefined
  blurred: boolean
  onReport: (() => void) | undefined
}) {
  const [shown, setShown] = useState(false)
  const url = useBlobUrl(src, local)
  if (!url) return null
  const hidden = blurred && !shown
  return (
    <div className={`message__photo${hidden ? ' message__photo--blurred' : ''}`}>
      <img src={url} alt={m.chat_photo_alt()} loading="lazy" decoding="async" />
      {hidden && (
        <button type="button" className="message__photo-show" onClick={() => setShown(true)}>
          {m.chat_photo_show()}
        </button>
      )}
      {onReport && (
        <button
          type="button"
          className="button button--quiet message__photo-report"
          onClick={onReport}
        >
          {m.chat_photo_report()}
        </button>
      )}
    </div>
  )
}

/**
 * Failed lines (their keys) that sent the member to /age already; kept for
 * the tab's session, since the check may leave the app (a wallet on the same
 * device, the demo's test wallet page) and come back with a fresh page.
 */
const SENT_TO_AGE = 'age-sent'
const sentToAge = {
  has: (key: string) => (sessionStorage.getItem(SENT_TO_AGE) ?? '').split(' ').includes(key),
  add: (key: string) =>
    sessionStorage.setItem(SENT_TO_AGE, `${sessionStorage.getItem(SENT_TO_AGE) ?? ''} ${key}`),
}

/** Why a message was not sent, in the member's words. */
function failedText(row: MessageRow): string {
  const voice = row.localVoice !== undefined
  switch (row.error) {
    case 'insufficient_credits':
      return m.chat_failed_credits()
    case 'age_assurance_required':
      return m.chat_failed_age()
    case 'blocked':
      return m.chat_failed_blocked()
    case 'verified_only':
      return m.chat_verified_only()
    case 'gift_needs_conversation':
      return m.chat_failed_gift_first()
    case 'voice_needs_conversation':
      return m.chat_failed_voice_first()
    case 'photo_needs_verification':
      return m.chat_photo_needs_verification()
    case 'invalid_image':
      return m.chat_photo_invalid()
    case 'invalid_input':
      return voice ? m.chat_voice_invalid() : m.chat_failed()
    default:
      return m.chat_failed()
  }
}

/** What the failed message costs: the credits to buy at least (a gift's, a photo's, a voice message's price). */
function need(
  row: MessageRow,
  balance: ReturnType<typeof useCredits>,
  voicePrice: number | undefined,
): number | undefined {
  if (row.gift) return row.gift.credits
  if (row.localPhoto) return balance?.photo_cost ?? balance?.message_cost
  if (row.localVoice) return voicePrice ?? balance?.message_cost
  return balance?.message_cost
}

function FailedActions({ row }: { row: MessageRow }) {
  const credits = row.error === 'insufficient_credits'
  const balance = useCredits()
  const voicePrice = useSettings()?.voice_message_credits
  // The site asks for proof of age first (api/age/): to the check, and back
  // here after it; once per failed line, so a later visit is not sent again.
  const age = row.error === 'age_assurance_required'
  const navigate = useNavigate()
  useEffect(() => {
    if (!age || sentToAge.has(row.key)) return
    sentToAge.add(row.key)
    void navigate({ href: `/age?next=${encodeURIComponent(window.location.pathname)}` })
  }, [age, row.key, navigate])
  return (
    <div className="message__failed" role="alert">
      <span>{failedText(row)}</span>
      {credits && (
        <a href={buyCreditsHref(need(row, balance, voicePrice), balance?.credits)}>
          {m.chat_buy_credits()}
        </a>
      )}
      {age && (
        <a href={`/age?next=${encodeURIComponent(window.location.pathname)}`}>
          {m.chat_confirm_age()}
        </a>
      )}
      {(row.error === 'verified_only' || row.error === 'photo_needs_verification') && (
        <a href="/verify">{m.verify_title()}</a>
      )}
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
