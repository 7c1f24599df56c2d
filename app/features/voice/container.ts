import type { VOICE_TYPES } from '../../../api/contract/index.ts'

export type VoiceType = (typeof VOICE_TYPES)[number]

/**
 * The longest recording: the contract's VOICE_MAX_MS (60 s), which app/ may
 * not import as a value (layers.test.ts); voice.test.ts keeps the two equal.
 */
export const RECORDING_MAX_MS = 60_000

/**
 * What the recorder records into, by what this browser's MediaRecorder
 * supports: webm/Opus (Chromium, Firefox), else mp4 (Safari, AAC). `type` is
 * the base type the server is told (api/contract/messages.ts VOICE_TYPES);
 * null when neither can be recorded.
 */
export function chooseContainer(
  isTypeSupported: (mime: string) => boolean,
): { mimeType: string; type: VoiceType } | null {
  if (isTypeSupported('audio/webm;codecs=opus'))
    return { mimeType: 'audio/webm;codecs=opus', type: 'audio/webm' }
  if (isTypeSupported('audio/mp4')) return { mimeType: 'audio/mp4', type: 'audio/mp4' }
  return null
}
