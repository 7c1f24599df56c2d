// Age assurance calls (api/age/): the member's status, starting a check and
// polling it. Nothing is stored: the /age page asks while the member waits,
// online only.
import { request } from '../core/http.ts'

export const ageHandlers = () => ({
  ageStatus: () => request('ageStatus'),
  ageStart: () => request('ageStart', { body: { provider: 'eu-av' } }),
  ageRequest: (id: string) => request('ageRequest', { query: { request: id } }),
})
