import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { whenUnauthenticated } from './api/client';
import { closeLiveConnection } from './api/live';
import { forgetApiKey, storeApiKey, storedApiKey } from './api/session';

interface Session {
  signedIn: boolean;
  /** Why the last session ended, when the API refused the key. */
  notice?: string;
  signIn(key: string): void;
  signOut(notice?: string): void;
}

const SessionContext = createContext<Session | undefined>(undefined);

/** The signed-in API key (session storage): signing out forgets it and every cached answer. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [signedIn, setSignedIn] = useState(() => storedApiKey() !== null);
  const [notice, setNotice] = useState<string>();

  const signOut = useCallback(
    (why?: string) => {
      forgetApiKey();
      closeLiveConnection();
      queryClient.clear();
      setNotice(why);
      setSignedIn(false);
    },
    [queryClient],
  );
  const signIn = useCallback((key: string) => {
    storeApiKey(key);
    setNotice(undefined);
    setSignedIn(true);
  }, []);

  // A key that stops working (revoked, expired, changed on the server) ends the session.
  useEffect(
    () => whenUnauthenticated(() => signOut('The API no longer accepts this key; sign in again.')),
    [signOut],
  );

  const value = useMemo(() => ({ signedIn, notice, signIn, signOut }), [signedIn, notice, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
