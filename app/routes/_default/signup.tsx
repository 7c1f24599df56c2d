import { createFileRoute } from '@tanstack/react-router'
import { leaveIfSignupComplete } from '../../data/guard.ts'
import { SignupPage } from '../../features/account/SignupPage.tsx'

// A member whose sign-up is complete goes to the members area instead.
export const Route = createFileRoute('/_default/signup')({
  beforeLoad: leaveIfSignupComplete,
  component: SignupPage,
})
