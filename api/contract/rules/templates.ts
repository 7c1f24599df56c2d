// Spec §1/§9: the designs a site can have (the root element's class). The
// settings' schema (api/contract/settings.ts), the operator's console and the
// developer panel list them from here.

/** The three designs; classic is the default. */
export const TEMPLATES = ['classic', 'boxy', 'lavish'] as const
export type Template = (typeof TEMPLATES)[number]

/** The design of a site whose settings name none, or none known. */
export const DEFAULT_TEMPLATE: Template = 'classic'

export const isTemplate = (value: unknown): value is Template =>
  (TEMPLATES as readonly unknown[]).includes(value)
