// The operator's console's calls (app/data/console-client.ts), by the name of
// their entry in the endpoint table.
//
// Why through the worker: the console used to fetch on the main
// thread with its own path strings and took every answer on trust (`json as
// T`). The table's response schemas are zod, and the page loads no zod (the
// layer rule of layers.test.ts holds for the console's chunk too), while the
// worker already has both the table and zod (`request(name)`, what every
// member call goes through). So the console asks the worker, which takes
// method, path and fixed query from the entry, sends the body as the entry
// says and parses the answer with the entry's schema, and hands the parsed
// answer back. What the console used to promise still holds: nothing here
// touches the store (no Dexie, no kv, no outbox, no conditional-GET copy:
// those are for the polled member reads only), so a staff device keeps no
// copy of other members' data; the answer lives only as long as the page's
// state. Only console endpoints (`/api/operator/...`) are called this way: a
// member call goes through its domain, which stores what it should.
import type { EndpointDef } from '../../api/contract/index.ts'
import { endpoints } from '../../api/contract/index.ts'
import { isOperatorPath, type operatorEndpoints } from '../../api/contract/operator/index.ts'
import { fail, type Result } from '../core/errors.ts'
import { type BodyOf, type QueryOf, type ResponseOf, request } from '../core/http.ts'

/** The console's endpoints: the operator part of the table. */
export type ConsoleEndpointName = keyof typeof operatorEndpoints

/** What a console call sends: the entry's query and body (no signal: it does not cross to the worker). */
export interface ConsoleCallOptions<K extends ConsoleEndpointName> {
  query?: QueryOf<K>
  body?: BodyOf<K>
}

/** Whether `name` names a console entry of the table (the page's word is not taken for it). */
export const isConsoleEndpoint = (name: string): name is ConsoleEndpointName =>
  Object.hasOwn(endpoints, name) &&
  isOperatorPath((endpoints as Record<string, EndpointDef>)[name]?.path ?? '')

export const consoleHandlers = () => ({
  /**
   * One console call: method, path and fixed query from the table's entry,
   * the answer parsed with its response schema (`bad_response` when it does
   * not match). Stores nothing.
   */
  async consoleRequest<K extends ConsoleEndpointName>(
    name: K,
    options: ConsoleCallOptions<K> = {},
  ): Promise<Result<ResponseOf<K>>> {
    if (!isConsoleEndpoint(name)) {
      return fail({ code: 'not_console', message: `${String(name)}: not a console endpoint` })
    }
    return request<K>(name, options)
  },
})

export type ConsoleHandlers = ReturnType<typeof consoleHandlers>
