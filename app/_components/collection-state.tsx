'use client';

/** How a list of the API is shown and refreshed, the same in the console and the portal. */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { CallInput, CallOutput, ItemOf } from '@/lib/contract/client';
import type { CollectionContract, ResourceContract } from '@/lib/contract/wire';
import type { Call } from './api/use-api';
import { problemMessage, type ApiResult } from './auth/api';
import { ErrorAlert } from './auth/error-alert';

/**
 * A collection's list (`children`, rendered once items exist) with its loading, failure, emptiness
 * and "Show more", said the same way in every section.
 */
export function CollectionState({
  items,
  error,
  loading,
  hasMore,
  loadMore,
  empty,
  children,
}: {
  items: unknown[] | null;
  error: string | null;
  loading: boolean;
  hasMore: boolean;
  loadMore: () => void;
  empty: ReactNode;
  children?: ReactNode;
}) {
  return (
    <>
      <ErrorAlert message={error} />
      {items === null ? (
        <p className="hint" role="status">
          Loading…
        </p>
      ) : items.length === 0 ? (
        !error && <div className="console-empty">{empty}</div>
      ) : (
        children
      )}
      {hasMore && (
        <div className="console-more">
          <button type="button" className="auth-secondary" onClick={loadMore} disabled={loading}>
            Show more
          </button>
        </div>
      )}
    </>
  );
}

/**
 * A section's polite status line and its reload after a change. When the change removed the row
 * whose button had focus, focus continues from the section's heading (`heading`, tabIndex -1)
 * instead of dropping to the page's start.
 */
export function useSectionStatus(reload: () => Promise<void>) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [note, setNote] = useState<string | null>(null);
  const changed = useCallback(
    async (message: string) => {
      setNote(message);
      await reload();
      setTimeout(() => {
        if (!document.activeElement || document.activeElement === document.body) heading.current?.focus();
      }, 0);
    },
    [reload],
  );
  return { heading, note, setNote, changed };
}

/* eslint-disable @typescript-eslint/no-explicit-any -- any list's contract may be listed */
type AnyCollectionContract = CollectionContract<any, any, any, any, any, any>;
type AnyResourceContract = ResourceContract<any, any, any, any, any, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */
type ListItem<L> = L extends readonly (infer T)[] ? T : never;

/** One page of a collection, as every cursor-paged list answers. */
type Envelope = Record<string, unknown> & { has_more?: boolean; next_cursor?: string | null };

/** Reads one page (after `cursor`, or the first); null: nothing to show (the page left for sign-in). */
type PageReader = (cursor: string | undefined) => Promise<ApiResult<Envelope> | null>;

/**
 * The collection of `contract`, called with `input` (its path parameters and filters; null: nothing to
 * load yet) through `call` (the page's useApi), loaded again when the input changes; `loadMore` follows
 * next_cursor. `items` is null until the first page arrives, and each item is typed by the contract.
 */
export function useContractCollection<C extends AnyCollectionContract>(contract: C, input: CallInput<C> | null, call: Call) {
  // Pages pass their input as a literal: its content, not its identity, says when to load again.
  const key = input === null ? null : JSON.stringify(input);
  const given = useRef(input);
  given.current = input;
  const readPage = useCallback<PageReader>(
    (cursor) => call(contract, { ...given.current!, cursor } as CallInput<C>) as Promise<ApiResult<Envelope> | null>,
    [call, contract],
  );
  return usePages<ItemOf<C>>(key === null ? null : `${contract.id} ${key}`, contract.collection, readPage);
}

/**
 * A list an operation answers whole in the collection envelope (`field`, has_more false), such as an
 * organization's roles or policies: shown and refreshed like a collection.
 */
export function useContractList<C extends AnyResourceContract, F extends keyof CallOutput<C> & string>(contract: C, input: CallInput<C>, call: Call, field: F) {
  const key = JSON.stringify(input);
  const given = useRef(input);
  given.current = input;
  const readPage = useCallback<PageReader>(() => call(contract, given.current) as Promise<ApiResult<Envelope> | null>, [call, contract]);
  return usePages<ListItem<CallOutput<C>[F]>>(`${contract.id} ${key}`, field, readPage);
}

/** The paging both share: `key` names what is listed (null: nothing yet); answers to an earlier key are dropped. */
function usePages<T>(key: string | null, field: string, readPage: PageReader) {
  const [items, setItems] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const generation = useRef(0);
  const reader = useRef(readPage);
  reader.current = readPage;

  const load = useCallback(
    async (after: string | null) => {
      if (key === null) return;
      const mine = after === null ? ++generation.current : generation.current;
      setLoading(true);
      const result = await reader.current(after ?? undefined);
      if (mine !== generation.current || result === null) return;
      setLoading(false);
      if (!result.ok) {
        setError(problemMessage(result.body));
        if (after === null) setItems([]);
        return;
      }
      const page = (result.body[field] as T[] | undefined) ?? [];
      setItems((previous) => (after === null ? page : [...(previous ?? []), ...page]));
      setCursor(result.body.has_more ? (result.body.next_cursor ?? null) : null);
      setError(null);
    },
    [key, field],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  const reload = useCallback(() => load(null), [load]);
  const loadMore = useCallback(() => load(cursor), [load, cursor]);
  return { items, error, loading, hasMore: cursor !== null, reload, loadMore };
}
