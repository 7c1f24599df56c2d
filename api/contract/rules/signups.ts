// Spec §5: whether the sign-up form is open, applied by the API (which refuses
// a closed sign-up) and by the app (which shows the form or a notice).

export type SignupsSetting = 'all' | 'with_trafficsource' | (string & {})

/** Sign-ups are open for `all`, or `with_trafficsource` with a network entry. */
export function signupsOpen(signups: SignupsSetting, network: string | null | undefined): boolean {
  return (
    signups === 'all' || (signups === 'with_trafficsource' && (network?.trim().length ?? 0) > 0)
  )
}
