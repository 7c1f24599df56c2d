// Limits of the public complaints form (EU notice-and-action), applied by the
// form and by the API. Generous for a real notice, small enough that the
// form is no way to store or mail bulk text.
export const COMPLAINT_NAME_MAX = 150
export const COMPLAINT_SUBJECT_MAX = 200
export const COMPLAINT_URL_MAX = 2048
export const COMPLAINT_TEXT_MIN = 10
export const COMPLAINT_TEXT_MAX = 5000
/** notice: content thought illegal or against the terms; decision: an appeal of our decision. */
export const COMPLAINT_KINDS = ['notice', 'decision'] as const
export type ComplaintKind = (typeof COMPLAINT_KINDS)[number]
