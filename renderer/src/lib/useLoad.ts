import { useCallback, useEffect, useRef, useState } from 'react';
import type { CoreEvent } from '../../../common/contract';
import { useConnectionGeneration, useCoreEvents } from './control';
import { errorMessage } from './errors';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  /** Fetches again now (the view keeps the old data until the answer arrives: no layout jump). */
  reload: () => void;
  /** Replaces the data with what a mutation answered. */
  setData: (update: (old: T | null) => T | null) => void;
}

/**
 * Data for one page: fetched on mount, whenever the event stream
 * (re)connects (events sent while disconnected are lost), and after the core
 * events `refreshOn` accepts — coalesced, so a burst is one fetch. Answers
 * that arrive out of order never overwrite a newer one.
 */
export function useLoad<T>(
  fetcher: () => Promise<T>,
  refreshOn: (event: CoreEvent) => boolean = () => false,
  /** Fetch again when this changes (e.g. the agent a list is for). */
  key: string = '',
): Loaded<T> {
  const [data, setDataState] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const generation = useConnectionGeneration();
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const latest = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const reload = useCallback(() => {
    const ticket = ++latest.current;
    fetcherRef.current().then(
      (value) => {
        if (ticket !== latest.current) return;
        setDataState(value);
        setError(null);
      },
      (err: unknown) => {
        if (ticket === latest.current) setError(errorMessage(err));
      },
    );
  }, []);

  useEffect(() => reload(), [reload, generation, key]);
  useEffect(() => () => clearTimeout(timer.current), []);

  useCoreEvents((event) => {
    if (!refreshOn(event)) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(reload, 120);
  });

  const setData = useCallback((update: (old: T | null) => T | null) => {
    latest.current++; // an older fetch still in flight must not undo this
    setDataState(update);
  }, []);

  return { data, error, reload, setData };
}
