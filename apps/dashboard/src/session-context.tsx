import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { whenUnauthenticated } from './api/client';
import { closeLiveConnection } from './api/live';
import { currentSession, endSession } from './api/people-session';
import { forgetApiKey, sessionCsrf, setSessionCsrf, storeApiKey, storedApiKey } from './api/session';

interface Session {
  /** Undefined while the browser's session is being looked up (on load). */
  signedIn: boolean | undefined;
  /** `person`: signed in with the identity provider (a cookie); `key`: an API key in this tab. */
  kind?: 'person' | 'key';
  /** Why the last session ended, when the API refused it. */
  notice?: string;
  signIn(key: string): void;
  signOut(notice?: string): void;
}

const SessionContext = createContext<Session | undefined>(undefined);

/**
 * Who this tab is signed in as: a person (the provider's sign-in left an HttpOnly session cookie;
 * the page keeps only its CSRF token, in memory) or an API key (session storage). Signing out
 * ends the session at the api and at the provider, or forgets the key, and every cached answer.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [signedIn, setSignedIn] = useState<boolean | undefined>(() =>
    storedApiKey() !== null ? true : undefined,
  );
  const [kind, setKind] = useState<'person' | 'key' | undefined>(() =>
    storedApiKey() !== null ? 'key' : undefined,
  );
  const [notice, setNotice] = useState<string>();
  // Set as the sign-in ends, before React renders again: the other requests refused with it
  // (several queries are in flight at once) must not replace the first refusal's notice.
  const ended = useRef(false);

  useEffect(() => {
    if (storedApiKey() !== null) return;
    let live = true;
    currentSession()
      .then((session) => {
        if (!live) return;
        setSessionCsrf(session?.csrfToken ?? null);
        setKind(session ? 'person' : undefined);
        setSignedIn(session !== null);
      })
      .catch(() => live && setSignedIn(false));
    return () => {
      live = false;
    };
  }, []);

  const signOut = useCallback(
    (why?: string) => {
      ended.current = true;
      const csrf = sessionCsrf();
      forgetApiKey();
      setSessionCsrf(null);
      closeLiveConnection();
      queryClient.clear();
      setNotice(why);
      setSignedIn(false);
      setKind(undefined);
      if (csrf && !why) {
        // The provider's own sign-out ends its session too, then comes back here.
        void endSession(csrf).then((logoutUrl) => {
          if (logoutUrl) window.location.assign(logoutUrl);
        });
      }
    },
    [queryClient],
  );
  const signIn = useCallback((key: string) => {
    ended.current = false;
    storeApiKey(key);
    setNotice(undefined);
    setKind('key');
    setSignedIn(true);
  }, []);

  // A key or a session that stops working (revoked, expired, deactivated) ends the sign-in.
  useEffect(
    () =>
      whenUnauthenticated(() => {
        if (ended.current) return;
        signOut(
          storedApiKey() !== null
            ? 'The API no longer accepts this key; sign in again.'
            : 'Your session has ended (signed out elsewhere, expired or deactivated); sign in again.',
        );
      }),
    [signOut],
  );

  const value = useMemo(
    () => ({ signedIn, kind, notice, signIn, signOut }),
    [signedIn, kind, notice, signIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
