// The console's client (console-client.ts): a call names an entry of the
// endpoint table and goes to the worker, which parses the answer; the page
// gets the parsed answer or the error in the console's own shape.
import { beforeEach, describe, expect, it, vi } from 'vitest'

const worker = vi.hoisted(() => ({ consoleRequest: vi.fn(), endpointUrl: vi.fn() }))
vi.mock('../../sync/client.ts', () => worker)

const { call, consoleLink } = await import('./console-client.ts')

describe('the console client', () => {
  beforeEach(() => {
    worker.consoleRequest.mockReset()
    worker.endpointUrl.mockReset()
  })

  it('asks the worker by endpoint name and answers the parsed value', async () => {
    const staff = { id: 1, email: 'a@example.com', name: 'A', roles: [], capabilities: [] }
    worker.consoleRequest.mockResolvedValue({ ok: true, value: staff })
    expect(await call('operatorMe')).toEqual({ ok: true, data: staff })
    expect(worker.consoleRequest).toHaveBeenCalledWith('operatorMe', {})
    await call('operatorAudit', { query: { before: 3 } })
    expect(worker.consoleRequest).toHaveBeenLastCalledWith('operatorAudit', {
      query: { before: 3 },
    })
  })

  it("gives the API's error code, status and field", async () => {
    worker.consoleRequest.mockResolvedValue({
      ok: false,
      error: { code: 'invalid_input', message: 'invalid_input', status: 400, field: 'code' },
    })
    expect(
      await call('operatorLogin', { body: { email: 'a@example.com', password: 'p', code: '1' } }),
    ).toEqual({
      ok: false,
      status: 400,
      error: 'invalid_input',
      field: 'code',
      message: 'invalid_input',
    })
  })

  it('answers offline with status 0 when the API or the worker cannot be reached', async () => {
    worker.consoleRequest.mockResolvedValueOnce({
      ok: false,
      error: { code: 'offline', message: 'Failed to fetch' },
    })
    expect(await call('operatorQueue')).toMatchObject({ ok: false, status: 0, error: 'offline' })
    worker.consoleRequest.mockRejectedValueOnce(new Error('worker failed to start'))
    expect(await call('operatorQueue')).toMatchObject({ ok: false, status: 0, error: 'offline' })
  })

  it('asks the worker once for the address of a download', async () => {
    worker.endpointUrl.mockResolvedValue('/from/the/table?id=7')
    const query = { id: 7, reason: 'asked' }
    expect(await consoleLink('operatorMemberExport', query)).toBe('/from/the/table?id=7')
    expect(await consoleLink('operatorMemberExport', query)).toBe('/from/the/table?id=7')
    expect(worker.endpointUrl).toHaveBeenCalledTimes(1)
    expect(worker.endpointUrl).toHaveBeenCalledWith('operatorMemberExport', query)
  })
})
