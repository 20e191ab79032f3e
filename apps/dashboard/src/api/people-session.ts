/** A provider people may sign in with (GET /auth/providers). */
export interface SignInProvider {
  id: string;
  name: string;
  loginUrl: string;
}

export async function signInProviders(): Promise<SignInProvider[]> {
  const response = await fetch('/auth/providers');
  if (!response.ok) return [];
  return ((await response.json()) as { providers: SignInProvider[] }).providers;
}

/** The session of this browser, if a person is signed in: its CSRF token; null otherwise. */
export async function currentSession(): Promise<{ csrfToken: string } | null> {
  const response = await fetch('/auth/session', { credentials: 'same-origin' });
  if (!response.ok) return null;
  const body = (await response.json()) as { csrfToken: string | null };
  return body.csrfToken === null ? null : { csrfToken: body.csrfToken };
}

/** Ends the session here; the provider's sign-out address, to end it there too. */
export async function endSession(csrfToken: string): Promise<string | undefined> {
  const response = await fetch('/auth/logout', {
    method: 'POST',
    headers: { 'x-csrf-token': csrfToken },
    credentials: 'same-origin',
  });
  if (!response.ok) return undefined;
  return ((await response.json()) as { logoutUrl?: string }).logoutUrl;
}

/** What each refused sign-in says to the person (the reason comes back in ?signInError=). */
export const SIGN_IN_ERRORS: Record<string, string> = {
  UNKNOWN_STATE: 'That sign-in answer was not for a sign-in started here. Please sign in again.',
  STATE_USED: 'That sign-in was already completed. Please sign in again.',
  LOGIN_EXPIRED: 'The sign-in took too long. Please sign in again.',
  NOT_THIS_BROWSER: 'The sign-in was started in another browser, so it was refused. Please sign in here.',
  PROVIDER_ERROR: 'The identity provider refused the sign-in.',
  CODE_REJECTED: 'The identity provider refused the sign-in code. Please sign in again.',
  INVALID_ID_TOKEN: 'The identity provider’s answer did not check out, so it was refused.',
  DEACTIVATED: 'Your Trove account is deactivated. Ask an administrator.',
  NOT_INVITED: 'You have no Trove account yet. Ask an administrator to add you.',
  PROVIDER_UNAVAILABLE: 'The identity provider could not be reached. Try again shortly.',
  UNKNOWN_PROVIDER: 'That identity provider is not configured here.',
};
