import { createFileRoute, Link } from '@tanstack/react-router'
import { m } from '../../../../../messages/paraglide/messages.js'
import { sectionsFor } from '../../../../features/operator/nav.ts'

export const Route = createFileRoute('/_default/operator/_console/')({
  component: Overview,
})

function Overview() {
  const { staff } = Route.useRouteContext()
  const sections = sectionsFor(staff.capabilities).filter((s) => s.to !== '/operator')
  return (
    <main>
      <h1>{m.op_overview_title()}</h1>
      <p>{m.op_overview_intro({ name: staff.name })}</p>
      <ul className="console-cards">
        {sections.map((s) => (
          <li key={s.to}>
            <Link to={s.to} className="console-card">
              <strong>{s.label()}</strong>
              {s.about()}
            </Link>
          </li>
        ))}
      </ul>
    </main>
  )
}
