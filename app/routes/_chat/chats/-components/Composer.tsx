import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import type { CreditValue } from '../../../../../api/contract/rules/credit-value.ts'
import { MESSAGE_MAX } from '../../../../../api/contract/rules/messages.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { worker } from '../../../../data/worker.ts'
import { messageMoneyText } from '../../../../features/credits/money.ts'
import { GiftPicker } from '../../../../features/gifts/GiftPicker.tsx'
import { VoiceRecorder } from '../../../../features/voice/VoiceRecorder.tsx'

interface ComposerProps {
  conversation: number
  credits: number | undefined
  cost: number | undefined
  /** What a photo message costs on this site (GET /api/credits.php photo_cost). */
  photoCost?: number | undefined
  /** The member's value of a credit (the one rule): the message's money beside its credits. */
  value: CreditValue | null
  /**
   * The conversation has a message: a voice message never opens one (the
   * server answers 409 voice_needs_conversation), so the microphone waits.
   */
  begun: boolean
  onSent: () => void
}

/** The message box: what a message costs, the member's balance, and the send. */
export function Composer({
  conversation,
  credits,
  cost,
  photoCost,
  value,
  begun,
  onSent,
}: ComposerProps) {
  const { text, setText, error, input, send, onKey, photo, choosePhoto } = useComposer(
    conversation,
    onSent,
  )
  const money = value === null || cost === undefined ? null : messageMoneyText(value, cost)
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
        onChange={(e) => {
          setText(e.target.value)
          // "… is typing" on the other side (the worker sends one every 2 s at most).
          if (e.target.value.trim() !== '') void worker().typing(conversation)
        }}
        onKeyDown={onKey}
      />
      <div className="composer__extras">
        <PhotoPicker photo={photo} onChoose={choosePhoto} />
        {begun && <VoiceRecorder conversation={conversation} onSent={onSent} />}
        <GiftPicker conversation={conversation} onSent={onSent} />
      </div>
      <button
        type="submit"
        className="button composer__send"
        disabled={text.trim().length === 0 && photo === null}
      >
        {m.chat_send()}
      </button>
      <p id="composer-cost" className="composer__cost">
        <SendCost cost={cost} photoCost={photo === null ? undefined : photoCost} money={money} />
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

/** What this send costs: a photo's price once one is chosen, else a message's with its money. */
function SendCost({
  cost,
  photoCost,
  money,
}: {
  cost: number | undefined
  photoCost: number | undefined
  money: string | null
}) {
  if (photoCost !== undefined)
    return <span data-photo-cost={photoCost}>{m.chat_photo_send_cost({ cost: photoCost })}</span>
  if (cost === undefined) return null
  return (
    <span {...(money ? { 'data-message-money': money } : {})}>
      {money ? m.chat_cost_money({ cost, money }) : m.chat_cost({ cost })}
    </span>
  )
}

/** The photo types a chat takes (the server checks the bytes again: api/images/chat-photos.ts). */
const PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/webp']

/**
 * The photo button (a file input that offers the camera on a phone) and,
 * once one is chosen, its preview with a button to take it off again.
 */
function PhotoPicker({
  photo,
  onChoose,
}: {
  photo: File | null
  onChoose: (file: File | null) => void
}) {
  const [preview, setPreview] = useState<string | null>(null)
  useEffect(() => {
    if (!photo) {
      setPreview(null)
      return
    }
    const url = URL.createObjectURL(photo)
    setPreview(url)
    return () => URL.revokeObjectURL(url)
  }, [photo])
  return (
    <div className="composer__photo">
      <label className="button button--quiet composer__photo-button">
        {m.chat_photo_attach()}
        <input
          type="file"
          className="visually-hidden"
          accept={PHOTO_TYPES.join(',')}
          capture="environment"
          data-chat-photo-input=""
          onChange={(e) => {
            onChoose(e.target.files?.[0] ?? null)
            e.target.value = ''
          }}
        />
      </label>
      {photo && preview && (
        <span className="composer__photo-preview">
          <img src={preview} alt={m.chat_photo_chosen()} />
          <button type="button" className="button button--quiet" onClick={() => onChoose(null)}>
            {m.chat_photo_remove()}
          </button>
        </span>
      )}
    </div>
  )
}

/** The box's text, photo and error, focused on arrival; Enter or the button sends. */
function useComposer(conversation: number, onSent: () => void) {
  const [text, setText] = useState('')
  const [photo, setPhoto] = useState<File | null>(null)
  const [error, setError] = useState<string | null>(null)
  const input = useRef<HTMLTextAreaElement>(null)
  useEffect(() => input.current?.focus(), [])

  function choosePhoto(file: File | null) {
    if (file && !PHOTO_TYPES.includes(file.type)) {
      setError(m.chat_photo_invalid())
      return
    }
    setError(null)
    setPhoto(file)
  }

  async function sendPhoto(file: File, caption: string) {
    setError(null)
    setText('')
    setPhoto(null)
    onSent()
    const res = await worker().sendPhoto(conversation, caption, file)
    if (!res.ok) {
      setPhoto(file)
      setText((typed) => (typed.trim() === '' ? caption : `${caption}\n${typed}`))
      setError(m.error_generic())
    }
  }

  async function send() {
    const body = text.trim()
    if (body.length > MESSAGE_MAX) {
      setError(m.chat_too_long({ max: MESSAGE_MAX }))
      return
    }
    if (photo) return sendPhoto(photo, body)
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

  return { text, setText, error, input, send, onKey, photo, choosePhoto }
}
