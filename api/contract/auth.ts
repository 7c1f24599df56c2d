import { z } from 'zod'

export const LoginRequest = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
})
export type LoginRequest = z.infer<typeof LoginRequest>

export const LogoutResponse = z.object({ status: z.literal('done') })
export type LogoutResponse = z.infer<typeof LogoutResponse>
