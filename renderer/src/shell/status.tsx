import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { StatusView } from '../../../common/contract';
import { useConnectionGeneration, useControl, useCoreEvents } from '../lib/control';
import { errorMessage } from '../lib/errors';

interface StatusContextValue {
  status: StatusView | null;
  error: string | null;
  refresh: () => void;
  setStatus: (s: StatusView) => void;
}

const StatusContext = createContext<StatusContextValue | null>(null);

/**
 * getStatus, shared by the status bar and the navigation, refreshed on the
 * events that change it (coalesced: a burst of approvals is one fetch).
 */
export function StatusProvider({ children }: { children: ReactNode }) {
  const { api } = useControl();
  const [status, setStatus] = useState<StatusView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const generation = useConnectionGeneration();

  const refresh = useCallback(() => {
    api.getStatus().then(
      (s) => {
        setStatus(s);
        setError(null);
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [api]);

  useEffect(() => refresh(), [refresh, generation]);
  useEffect(() => () => clearTimeout(timer.current), []);

  useCoreEvents((event) => {
    if (event.type === 'activity.added') return;
    clearTimeout(timer.current);
    timer.current = setTimeout(refresh, 150);
  });

  return (
    <StatusContext.Provider value={{ status, error, refresh, setStatus }}>
      {children}
    </StatusContext.Provider>
  );
}

export function useStatus(): StatusContextValue {
  const value = useContext(StatusContext);
  if (!value) throw new Error('useStatus outside StatusProvider');
  return value;
}
