import { mutate, safeNextPath } from '../../../web/src/index.ts';
import { getOnboarding, getOnboardingUrl } from '../../../web/src/api/generated/accounts.ts';

/** The router state of /welcome when a sign-in brought the member back to it (the page says so). */
export interface WelcomeState {
  resumedAfterSignIn?: boolean;
}

export interface SignInDestination {
  to: string;
  state?: WelcomeState;
}

/**
 * Where a member goes once signed in (password sign-in, a password reset; issue 21):
 * - the page they were going to when the sign-in carried one (`/auth?next=/museum/x`, a shared
 *   link): respected; Home's "Finish setting up" notice still offers the onboarding later;
 * - otherwise, an onboarding begun and left (status `started`: neither finished nor skipped) takes
 *   them back to /welcome, which resumes at the step they left;
 * - otherwise Home.
 * Asked right after the sign-in's answer (its session cookie is set) and before the app learns of
 * the member, so no other page shows in between. The answer primes the onboarding's cache entry
 * (/welcome and Home's notice read it). If it cannot be read, Home: its notice offers the rest.
 */
export async function signInDestination(rawNext: string | null | undefined): Promise<SignInDestination> {
  const next = safeNextPath(rawNext);
  if (next !== '/') return { to: next };
  try {
    const onboarding = await getOnboarding();
    await mutate(getOnboardingUrl(), onboarding, { revalidate: false });
    if (onboarding.status === 'started') return { to: '/welcome', state: { resumedAfterSignIn: true } };
  } catch {
    // never keeps a member from signing in
  }
  return { to: '/' };
}
