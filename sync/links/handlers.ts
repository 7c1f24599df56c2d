// Addresses of the API that the page opens itself rather than asks the worker
// to call: a download (the member's data, a console export or CSV report),
// which the browser saves as a file. The page loads no endpoint table (it is
// zod), so it asks the worker for the address; the path comes from the
// table's entry all the same, and nothing is fetched or stored here.
import type { EndpointName, Endpoints } from '../../api/contract/index.ts'
import { endpoints } from '../../api/contract/index.ts'
import { endpointUrl, type QueryOf } from '../core/http.ts'

/** The endpoints a page may link to: the GETs. */
export type LinkEndpointName = {
  [K in EndpointName]: Endpoints[K]['method'] extends 'GET' ? K : never
}[EndpointName]

export const linkHandlers = () => ({
  /** `/api/x.php?a=1` of a GET endpoint with its fixed query and `query`. */
  async endpointUrl<K extends LinkEndpointName>(name: K, query?: QueryOf<K>): Promise<string> {
    if (!Object.hasOwn(endpoints, name) || endpoints[name].method !== 'GET') {
      throw new Error(`${String(name)}: not a GET endpoint`)
    }
    return endpointUrl(name, query)
  },
})

export type LinkHandlers = ReturnType<typeof linkHandlers>
