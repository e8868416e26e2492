import type { UserDto } from '@gaia/contracts';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import * as accountApi from '../api/account-api';
import { queryKeys, sessionQuery } from '../api/queries';

/** Another person (or nobody) is signed in: what the cache holds of the last one is dropped, what is on screen refetched. */
function forgetUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
  void queryClient.invalidateQueries();
}

export interface AuthContextValue {
  user: UserDto | null;
  /** True until the first GET /api/auth/session has answered. */
  loading: boolean;
  refresh(): Promise<UserDto | null>;
  signIn(email: string, password: string): Promise<UserDto>;
  signUp(email: string, password: string, fullName?: string): Promise<UserDto>;
  signOut(): Promise<void>;
  /** Opens the identity provider popup; resolves with the signed-in user, or null if it failed or was closed. */
  signInWithPopup(): Promise<UserDto | null>;
  /** The sign-in dialog (built by the dashboard area) reads and closes this. */
  signInDialogOpen: boolean;
  /** Opens the sign-in dialog; after signing in the user is sent to `returnTo` (default /dashboard). */
  openSignInDialog(returnTo?: string): void;
  closeSignInDialog(): void;
  /** Where the dialog sends the user after signing in (set by openSignInDialog). */
  signInReturnTo: string | null;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export const AUTH_MESSAGE_TYPE = 'gaia-auth';

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  // The session is server state like any other: GET /api/auth/session in the cache (a failure reads as signed out).
  const session = useQuery(sessionQuery());
  const user = session.data ?? null;
  const loading = session.isPending;
  const setUser = useCallback((next: UserDto | null) => queryClient.setQueryData(queryKeys.session, next), [queryClient]);
  const [signInDialogOpen, setSignInDialogOpen] = useState(false);
  const [signInReturnTo, setSignInReturnTo] = useState<string | null>(null);
  const uid = user?.uid ?? null;
  const lastUid = useRef<string | null>(null);
  useEffect(() => {
    if (lastUid.current !== null && lastUid.current !== uid) forgetUserData(queryClient);
    lastUid.current = uid;
  }, [uid, queryClient]);

  const refresh = useCallback(() => queryClient.fetchQuery({ ...sessionQuery(), staleTime: 0 }), [queryClient]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      const { user: me } = await accountApi.signIn({ email, password });
      setUser(me);
      return me;
    },
    [setUser],
  );

  const signUp = useCallback(
    async (email: string, password: string, fullName?: string) => {
      const { user: me } = await accountApi.signUp({ email, password, fullName });
      setUser(me);
      return me;
    },
    [setUser],
  );

  const signOut = useCallback(async () => {
    try {
      await accountApi.signOut();
    } finally {
      setUser(null);
    }
  }, [setUser]);

  const signInWithPopup = useCallback(() => {
    return new Promise<UserDto | null>((resolve) => {
      const w = 500;
      const h = 650;
      const left = Math.max(0, window.screenX + (window.outerWidth - w) / 2);
      const top = Math.max(0, window.screenY + (window.outerHeight - h) / 2);
      const popup = window.open(accountApi.OIDC_START_PATH, 'gaia-auth', `width=${w},height=${h},left=${left},top=${top}`);
      if (!popup) {
        resolve(null);
        return;
      }
      let settled = false;
      let confirmed = false;
      const finish = (value: UserDto | null) => {
        if (settled) return;
        settled = true;
        window.removeEventListener('message', onMessage);
        window.clearInterval(closedPoll);
        resolve(value);
      };
      const onMessage = (event: MessageEvent) => {
        if (event.origin !== window.location.origin) return;
        const data = event.data as { type?: string; ok?: boolean } | null;
        if (!data || data.type !== AUTH_MESSAGE_TYPE) return;
        if (data.ok) {
          confirmed = true;
          void refresh().then(finish);
        } else finish(null);
      };
      window.addEventListener('message', onMessage);
      // The popup closes itself after posting; if the user closes it first, give up.
      const closedPoll = window.setInterval(() => {
        if (popup.closed && !confirmed) window.setTimeout(() => !confirmed && finish(null), 500);
      }, 500);
    });
  }, [refresh]);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      loading,
      refresh,
      signIn,
      signUp,
      signOut,
      signInWithPopup,
      signInDialogOpen,
      openSignInDialog: (returnTo?: unknown) => {
        // Called as an event handler too (onClick={openSignInDialog}): only a string is a return path.
        setSignInReturnTo(typeof returnTo === 'string' ? returnTo : null);
        setSignInDialogOpen(true);
      },
      closeSignInDialog: () => setSignInDialogOpen(false),
      signInReturnTo,
    }),
    [user, loading, refresh, signIn, signUp, signOut, signInWithPopup, signInDialogOpen, signInReturnTo],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}

/** Display name, else email, else the fallback ('User'). */
export function userLabel(user: Pick<UserDto, 'displayName' | 'email'> | null, fallback: string): string {
  return user?.displayName?.trim() || user?.email?.trim() || fallback;
}
