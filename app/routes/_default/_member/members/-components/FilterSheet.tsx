import { SlidersHorizontal, X } from 'lucide-react'
import { type ComponentProps, useState } from 'react'
import { m } from '../../../../../../messages/paraglide/messages.js'
import { Modal } from '../../../../../features/account/forms/Modal.tsx'
import { AGE_LABEL, Filters, type FilterValues, valuesOf } from './Filters.tsx'

type FiltersProps = ComponentProps<typeof Filters>

/**
 * The search filters on a phone: one button that opens them in a sheet (the
 * app's modal: a labelled dialog that takes the focus, gives it back to the
 * button and closes on Escape), so the photos come first on the screen. The
 * form is the one the wide layout shows inline, made afresh at each opening:
 * a change not searched for is dropped with the sheet.
 */
export function FilterSheet(props: FiltersProps) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button
        type="button"
        className="button button--secondary filter-sheet__open"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <SlidersHorizontal className="icon" aria-hidden="true" /> {m.members_filters_open()}
      </button>
      <Modal
        open={open}
        title={m.members_filters()}
        onClose={() => setOpen(false)}
        className="modal--sheet"
      >
        {open && (
          <Filters
            {...props}
            onSearch={(v) => {
              setOpen(false)
              props.onSearch(v)
            }}
          />
        )}
      </Modal>
    </>
  )
}

/** One filter in force beyond gender and country, and the search without it. */
interface Chip {
  id: string
  label: string
  without: Partial<FilterValues>
}

function chipsOf(props: FiltersProps): Chip[] {
  const v = valuesOf(props.page, props.onlineFirst)
  const chips: Chip[] = []
  if (v.region) {
    const name = props.page.filterOptions.countryregion.find((r) => r.id === v.region)?.name
    chips.push({ id: 'region', label: name ?? v.region, without: { region: '' } })
  }
  if (v.age !== 'all')
    chips.push({
      id: 'age',
      label: m.members_chip_age({ range: AGE_LABEL[v.age]() }),
      without: { age: 'all' },
    })
  if (v.onlineFirst)
    chips.push({ id: 'online', label: m.filter_online_first(), without: { onlineFirst: false } })
  if (v.verified)
    chips.push({ id: 'verified', label: m.filter_verified(), without: { verified: false } })
  return chips
}

/**
 * The filters in force, each a chip whose button searches again without it.
 * Gender and country are always set (the search has no "anyone anywhere"),
 * so they are changed in the sheet, not removed here.
 */
export function FilterChips(props: FiltersProps) {
  const chips = chipsOf(props)
  if (chips.length === 0) return null
  const values = valuesOf(props.page, props.onlineFirst)
  return (
    <ul className="filter-chips" aria-label={m.members_filters_active()}>
      {chips.map((c) => (
        <li key={c.id}>
          <button
            type="button"
            className="filter-chip"
            aria-label={m.members_filter_remove({ filter: c.label })}
            onClick={() => props.onSearch({ ...values, ...c.without })}
          >
            {c.label}
            <X className="icon" aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  )
}
