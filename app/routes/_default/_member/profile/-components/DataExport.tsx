// "Your data" on /profile: the member downloads everything the site holds
// about them as one JSON file (GDPR Art. 15/20). A plain link: the server
// answers with the file as an attachment (the service worker lets /api/
// navigations through), so nothing of it is kept in the app's store. Its
// address is the endpoint table's, which the worker holds (app/data/links.ts).
import { m } from '../../../../../../messages/paraglide/messages.js'
import { useLinkTo } from '../../../../../data/links.ts'

export function DataExport() {
  const href = useLinkTo('accountExport')
  return (
    <section aria-labelledby="profile-data">
      <h2 id="profile-data">{m.profile_data_title()}</h2>
      <p>{m.profile_data_body()}</p>
      <p>
        <a className="button" href={href} download data-testid="data-export">
          {m.profile_data_download()}
        </a>
      </p>
    </section>
  )
}
