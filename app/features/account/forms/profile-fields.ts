// Labels of the profile select fields and notes (settings.visible_profile_*).
// Explicit lookups, not m[key]: a dynamic lookup would pull every message of
// the site into this chunk.
import { m } from '../../../../messages/paraglide/messages.js'

const FIELD_LABELS: Record<string, () => string> = {
  relationship: m.field_relationship,
  height: m.field_height,
  smoking: m.field_smoking,
  children: m.field_children,
  education: m.field_education,
}

const NOTE_LABELS: Record<string, () => string> = {
  personal: m.note_personal,
  looking_for: m.note_looking_for,
}

const VALUE_LABELS: Record<string, Record<string, () => string>> = {
  relationship: {
    single: m.fv_relationship_single,
    divorced: m.fv_relationship_divorced,
    widowed: m.fv_relationship_widowed,
    separated: m.fv_relationship_separated,
    in_relationship: m.fv_relationship_in_relationship,
    married: m.fv_relationship_married,
  },
  height: {
    under_150: m.fv_height_under_150,
    '150_159': m.fv_height_150_159,
    '160_169': m.fv_height_160_169,
    '170_179': m.fv_height_170_179,
    '180_189': m.fv_height_180_189,
    '190_199': m.fv_height_190_199,
    '200_plus': m.fv_height_200_plus,
  },
  smoking: {
    no: m.fv_smoking_no,
    occasionally: m.fv_smoking_occasionally,
    yes: m.fv_smoking_yes,
  },
  children: {
    none: m.fv_children_none,
    at_home: m.fv_children_at_home,
    not_at_home: m.fv_children_not_at_home,
    want_children: m.fv_children_want_children,
  },
  education: {
    primary: m.fv_education_primary,
    secondary: m.fv_education_secondary,
    vocational: m.fv_education_vocational,
    bachelor: m.fv_education_bachelor,
    master: m.fv_education_master,
    doctorate: m.fv_education_doctorate,
  },
}

/** An operator may add fields the app has no text for yet: show the key readably. */
const humanize = (key: string) => {
  const s = key.replaceAll('_', ' ').trim()
  return s.charAt(0).toUpperCase() + s.slice(1)
}

export const fieldLabel = (name: string) => FIELD_LABELS[name]?.() ?? humanize(name)
export const noteLabel = (name: string) => NOTE_LABELS[name]?.() ?? humanize(name)
/** Allowed values are ids from GET /api/profile_fields.php ("in_relationship"), shown translated. */
export const fieldValueLabel = (field: string, value: string) =>
  VALUE_LABELS[field]?.[value]?.() ?? humanize(value)
