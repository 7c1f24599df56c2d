import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import type { CreditValue } from '../../../../../api/contract/rules/credit-value.ts'
import { MESSAGE_MAX } from '../../../../../api/contract/rules/messages.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { worker } from '../../../../data/worker.ts'
import { messageMoneyText } from '../../../../features/credits/money.ts'

/** The message box: what a message costs, the member's balance, and the send. */
export function Composer({
  conversation,
  credits,
  cost,
  value,
  onSent,
}: {
  conversation: number
  credits: number | undefined
  cost: number | undefined
  /** The member's value of a credit (the one rule): the message's money beside its credits. */
  value: CreditValue | null
  onSent: () => void
}) {
  const { text, setText, error, input, send, onKey } = useComposer(conversation, onSent)
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
      <button type="submit" className="button" disabled={text.trim().length === 0}>
        {m.chat_send()}
      </button>
      <p id="composer-cost" className="composer__cost">
        {cost !== undefined && (
          <span {...(money ? { 'data-message-money': money } : {})}>
            {money ? m.chat_cost_money({ cost, money }) : m.chat_cost({ cost })}
          </span>
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

/** The box's text and error, focused on arrival; Enter or the button sends. */
function useComposer(conversation: number, onSent: () => void) {
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

  return { text, setText, error, input, send, onKey }
}
