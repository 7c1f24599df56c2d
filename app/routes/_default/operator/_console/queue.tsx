// The moderation queue (moderators): member reports, complaints, appeals,
// photos held by pre-moderation and first messages held by the scam signals
// in one list, oldest first (what waits longer than 24 hours leads); an item
// with its context (the profile, the photo, the reported or held message) and
// the decision form (action, the rule it applies, a reason, days).
import { createFileRoute, Link } from '@tanstack/react-router'
import { type FormEvent, useId, useState } from 'react'
import type {
  ContextMessage,
  DecideRequest,
  QueueItemDetail,
  QueueItemType,
} from '../../../../../api/contract/operator/moderation.ts'
import {
  APPEAL_ACTIONS,
  MODERATION_ACTIONS,
  MODERATION_RULES,
  PHOTO_ACTIONS,
  QUEUE_ITEM_TYPES,
  SCAM_ACTIONS,
  SUSPEND_MAX_DAYS,
} from '../../../../../api/contract/rules/moderation.ts'
import { m } from '../../../../../messages/paraglide/messages.js'
import { call, useConsoleQuery } from '../../../../data/console-client.ts'
import {
  actionName,
  actionOn,
  poseName,
  ruleName,
  summaryOf,
  typeName,
} from '../../../../features/operator/moderation.ts'
import { formatDateTime } from '../../../../ui/format.ts'
import '../../../../features/operator/moderation.css'

type QueueSearch = { type?: QueueItemType; id?: number }

export const Route = createFileRoute('/_default/operator/_console/queue')({
  validateSearch: (s: Record<string, unknown>): QueueSearch => {
    const type = QUEUE_ITEM_TYPES.find((t) => t === s.type)
    const id = Number(s.id)
    return type && Number.isInteger(id) && id > 0 ? { type, id } : {}
  },
  component: QueuePage,
})

function QueuePage() {
  const search = Route.useSearch()
  return search.type && search.id ? <ItemView type={search.type} id={search.id} /> : <QueueList />
}

function QueueList() {
  const list = useConsoleQuery('operatorQueue')
  const items = list.data?.items ?? []
  return (
    <main>
      <h1>{m.op_mod_queue_title()}</h1>
      <p>{m.op_mod_queue_intro()}</p>
      {list.error && <p role="alert">{m.error_generic()}</p>}
      <div className="console-table-wrap">
        <table className="console-table">
          <caption className="visually-hidden">{m.op_mod_queue_title()}</caption>
          <thead>
            <tr>
              <th scope="col">{m.op_col_when()}</th>
              <th scope="col">{m.op_mod_col_type()}</th>
              <th scope="col">{m.op_mod_col_summary()}</th>
              <th scope="col">{m.op_mod_col_member()}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <tr key={`${i.type}-${i.id}`} className={i.overdue ? 'mod-overdue' : undefined}>
                <td>
                  {formatDateTime(i.created_at)}
                  {i.overdue && <span className="console-tag">{m.op_mod_overdue()}</span>}
                </td>
                <td>
                  <Link to="/operator/queue" search={{ type: i.type, id: i.id }}>
                    {typeName(i.type)} #{i.id}
                  </Link>
                </td>
                <td>{summaryOf(i)}</td>
                <td>{i.member ?? '—'}</td>
              </tr>
            ))}
            {!list.loading && items.length === 0 && (
              <tr>
                <td colSpan={4}>{m.op_mod_queue_empty()}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </main>
  )
}

function ItemView({ type, id }: { type: QueueItemType; id: number }) {
  const item = useConsoleQuery('operatorQueueItem', { type, id })
  const d = item.data
  return (
    <main>
      <p>
        <Link to="/operator/queue">{m.op_mod_back()}</Link>
      </p>
      <h1>
        {typeName(type)} #{id}
      </h1>
      {item.error && <p role="alert">{m.error_generic()}</p>}
      {d && (
        <div className="mod-item">
          <ItemCard d={d} />
          {d.profile && <ProfileCard profile={d.profile} />}
          {d.messages.length > 0 && <MessagesCard messages={d.messages} />}
          {d.decided_at ? (
            <p role="status">
              {m.op_mod_decided({
                when: formatDateTime(d.decided_at),
                action: actionName(d.decision ?? ''),
              })}
            </p>
          ) : (
            <DecideForm detail={d} onDone={item.reload} />
          )}
        </div>
      )}
    </main>
  )
}

function DecideForm({ detail, onDone }: { detail: QueueItemDetail; onDone: () => void }) {
  const appeal = detail.item.type === 'appeal'
  const actions: readonly string[] = appeal
    ? APPEAL_ACTIONS
    : detail.item.type === 'photo' ||
        detail.item.type === 'verification' ||
        detail.item.type === 'profile_text'
      ? PHOTO_ACTIONS
      : detail.item.type === 'scam'
        ? SCAM_ACTIONS
        : MODERATION_ACTIONS
  const [action, setAction] = useState(actions[0] as string)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const days = Number(form.get('days'))
    const photo = Number(form.get('photo'))
    setBusy(true)
    setError(null)
    const res = await call('operatorDecide', {
      body: {
        type: detail.item.type,
        id: detail.item.id,
        // The form's choices are the contract's actions and rules; the server checks them.
        action: action as DecideRequest['action'],
        reason: String(form.get('reason') ?? ''),
        ...(form.get('rule') ? { rule: String(form.get('rule')) as DecideRequest['rule'] } : {}),
        ...(action === 'suspend' && days ? { days } : {}),
        ...(action === 'remove_photo' && photo ? { photo } : {}),
      },
    })
    setBusy(false)
    if (!res.ok) {
      setError(res.error === 'same_moderator' ? m.op_mod_same_moderator() : m.op_check_fields())
      return
    }
    onDone()
  }

  return (
    <form className="form console-card" onSubmit={(e) => void submit(e)} aria-busy={busy}>
      <h2>{m.op_mod_decide()}</h2>
      {error && (
        <p className="form__error" role="alert">
          {error}
        </p>
      )}
      <label>
        {m.op_mod_action()}
        <select name="action" value={action} onChange={(e) => setAction(e.target.value)}>
          {actions.map((a) => (
            <option key={a} value={a}>
              {actionOn(detail.item.type, a)}
            </option>
          ))}
        </select>
      </label>
      {!appeal &&
        action !== 'dismiss' &&
        action !== 'approve' &&
        detail.item.type !== 'verification' && <RuleChoice />}
      {action === 'suspend' && <SuspendDays />}
      {action === 'remove_photo' && <PhotoChoice photos={detail.profile?.photos} />}
      <label>
        {m.op_mod_reason()}
        <textarea name="reason" required maxLength={2000} rows={4} />
      </label>
      <button type="submit" className="button" disabled={busy}>
        {m.op_mod_submit()}
      </button>
    </form>
  )
}

/** Which of the member's photos to remove. */
function PhotoChoice({
  photos,
}: {
  photos: NonNullable<QueueItemDetail['profile']>['photos'] | undefined
}) {
  return (
    <label>
      {m.op_mod_photo()}
      <select name="photo" required>
        {photos?.map((p) => (
          <option key={p.id} value={p.id}>
            #{p.id}
          </option>
        ))}
      </select>
    </label>
  )
}

/** For how many days a suspension lasts. */
function SuspendDays() {
  return (
    <label>
      {m.op_mod_days()}
      <input name="days" type="number" min={1} max={SUSPEND_MAX_DAYS} defaultValue={7} required />
    </label>
  )
}

/** The rule of the terms the decision applies. */
function RuleChoice() {
  return (
    <label>
      {m.op_mod_rule()}
      <select name="rule" required>
        {MODERATION_RULES.map((r) => (
          <option key={r} value={r}>
            {ruleName(r)}
          </option>
        ))}
      </select>
    </label>
  )
}

/** The messages around the item, the reported ones marked. */
function MessagesCard({ messages }: { messages: QueueItemDetail['messages'] }) {
  return (
    <section className="console-card" aria-labelledby="mod-messages">
      <h2 id="mod-messages">{m.op_mod_messages()}</h2>
      <ol className="mod-messages">
        {messages.map((msg) => (
          <li key={msg.id} className={msg.reported ? 'mod-reported' : undefined}>
            <span className="mod-meta">
              #{msg.sender} · {formatDateTime(msg.created_at)}
              {msg.reported && <strong> · {m.op_mod_reported()}</strong>}
            </span>
            {msg.photo && (
              <img
                className="mod-photo"
                src={msg.photo}
                alt={m.op_mod_chat_photo_alt({ id: String(msg.sender) })}
              />
            )}
            {msg.voice && <VoiceRecording voice={msg.voice} />}
            <span className="mod-text">{msg.body}</span>
          </li>
        ))}
      </ol>
    </section>
  )
}

/** A length in milliseconds as minutes and seconds (0:12), as the chat shows it. */
const clock = (ms: number) => {
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/**
 * A reported voice message's recording: a player of the `data:` URL the
 * queue item carries (the console's policy allows data: media, api/http/
 * security-headers.ts), named by its caption with its length; said so when
 * the store has it no more.
 */
function VoiceRecording({ voice }: { voice: NonNullable<ContextMessage['voice']> }) {
  const caption = useId()
  const length = clock(voice.duration_ms)
  if (!voice.url) return <p className="mod-voice">{m.op_mod_voice_gone({ length })}</p>
  return (
    <figure className="mod-voice">
      {/* biome-ignore lint/a11y/useMediaCaption: a member's voice recording has no captions to offer */}
      <audio controls preload="metadata" src={voice.url} aria-labelledby={caption} />
      <figcaption id={caption}>{m.op_mod_voice_label({ length })}</figcaption>
    </figure>
  )
}

/** The member the item is about: photos, text and sanctions. */
function ProfileCard({ profile }: { profile: NonNullable<QueueItemDetail['profile']> }) {
  return (
    <section className="console-card" aria-labelledby="mod-profile">
      <h2 id="mod-profile">
        {profile.name}, {profile.age}
        {profile.fictional && <span className="console-tag">{m.op_mod_fictional()}</span>}
      </h2>
      <p>
        #{profile.id} · {profile.city ?? '—'} ({profile.country})
      </p>
      <div className="mod-photos">
        {profile.photos.map((p) => (
          <figure key={p.id}>
            <img
              src={p.url}
              alt={m.op_mod_photo_alt({ id: String(p.id) })}
              width={96}
              height={96}
            />
            <figcaption>
              #{p.id}
              {p.main ? ` · ${m.op_mod_main_photo()}` : ''}
              {p.pending ? ` · ${m.op_mod_pending()}` : ''}
            </figcaption>
          </figure>
        ))}
      </div>
      <p className="mod-text">{profile.personal ?? '—'}</p>
      {profile.sanctions.map((s) => (
        <p key={s.id}>
          <span className="console-tag">{actionName(s.kind)}</span>
          {s.ends_at ? formatDateTime(s.ends_at) : ''}
        </p>
      ))}
    </section>
  )
}

/** The same photo on another account, found at upload: that account and its picture. */
function PhotoMatch({
  match,
}: {
  match: NonNullable<NonNullable<QueueItemDetail['photo']>['match']>
}) {
  const member = String(match.member)
  return (
    <div className="mod-match" role="note">
      <p>
        <strong>{m.op_mod_photo_match({ member })}</strong>
      </p>
      {match.thumb_url ? (
        <img
          src={match.thumb_url}
          alt={m.op_mod_photo_match_alt({ member, id: String(match.photo ?? '') })}
          width={96}
          height={96}
        />
      ) : (
        <p>{m.op_mod_photo_match_gone()}</p>
      )}
      {match.banned && <p>{m.op_mod_photo_match_banned()}</p>}
    </div>
  )
}

/** What was reported or is to be reviewed: the text, photo or selfie, link and appealed sanction. */
function ItemCard({ d }: { d: QueueItemDetail }) {
  return (
    <section className="console-card" aria-labelledby="mod-what">
      <h2 id="mod-what">{summaryOf(d.item)}</h2>
      {d.item.type === 'scam' && <p>{m.op_mod_scam_note()}</p>}
      <p>
        {formatDateTime(d.item.created_at)}
        {d.item.overdue && <span className="console-tag">{m.op_mod_overdue()}</span>}
      </p>
      {d.verification ? (
        <figure className="mod-review">
          {d.verification.selfie ? (
            <img
              src={d.verification.selfie}
              alt={m.op_mod_verification_selfie_alt({ id: String(d.item.member ?? '') })}
            />
          ) : (
            <p>{m.op_mod_verification_gone()}</p>
          )}
          <figcaption>
            {m.op_mod_verification_pose({ pose: poseName(d.verification.pose) })}
            <br />
            {m.op_mod_verification_turn({
              turn: d.verification.turn === 'left' ? m.op_mod_turn_left() : m.op_mod_turn_right(),
            })}
          </figcaption>
          <FaceScores face={d.verification.face} />
          {d.text && <p className="mod-text">{d.text}</p>}
        </figure>
      ) : d.photo ? (
        <figure className="mod-review">
          <img src={d.photo.url} alt={m.op_mod_photo_full_alt({ id: String(d.photo.id) })} />
          <figcaption>{m.op_mod_photo_review()}</figcaption>
          {d.photo.match && <PhotoMatch match={d.photo.match} />}
          {d.photo.face_match && (
            <div className="mod-match" role="note">
              <p>
                <strong>
                  {m.op_mod_face_same({
                    member: String(d.photo.face_match.member),
                    similarity: two(d.photo.face_match.similarity),
                  })}
                </strong>
              </p>
              {d.photo.face_match.banned && <p>{m.op_mod_face_same_banned()}</p>}
            </div>
          )}
        </figure>
      ) : (
        <p className="mod-text">{d.text || '—'}</p>
      )}
      {d.url && (
        <p>
          <a href={d.url} rel="noreferrer noopener" target="_blank">
            {d.url}
          </a>
        </p>
      )}
      {d.sanction && (
        <p>
          {m.op_mod_appealed({
            action: actionName(d.sanction.kind),
            rule: ruleName(d.sanction.rule),
            staff: String(d.sanction.staff),
          })}
          <br />
          {d.sanction.reason}
        </p>
      )}
    </section>
  )
}

type Face = NonNullable<QueueItemDetail['verification']>['face']

/** A similarity as the moderator reads it: two decimals. */
const two = (n: number) => n.toFixed(2)

/** The machine's face match beside the selfie (api/verification/face-job.ts): scores, not a decision. */
function FaceScores({ face }: { face: Face }) {
  if (!face) return <p>{m.op_mod_face_none()}</p>
  return (
    <ul className="mod-face">
      {face.same_as && (
        <li className="form__error">
          {m.op_mod_face_same({
            member: String(face.same_as.member),
            similarity: two(face.same_as.similarity),
          })}
          {face.same_as.banned && ` ${m.op_mod_face_same_banned()}`}
        </li>
      )}
      {face.auto && <li>{m.op_mod_face_auto()}</li>}
      <li>{m.op_mod_face_faces({ count: String(face.faces) })}</li>
      <li>{face.pose_ok ? m.op_mod_face_pose_ok() : m.op_mod_face_pose_wrong()}</li>
      <li>
        {face.similarity === null
          ? m.op_mod_face_no_photos()
          : m.op_mod_face_similarity({
              similarity: two(face.similarity),
              threshold: two(face.threshold),
              photos: String(face.photos),
            })}
      </li>
    </ul>
  )
}
