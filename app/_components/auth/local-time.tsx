'use client';

import { useSyncExternalStore } from 'react';

const neverChanges = () => () => {};

/**
 * A timestamp in the reader's own time zone. The server does not know that zone, so the server HTML
 * (and the hydration pass) shows UTC, and the browser then re-renders it locally; this avoids a
 * hydration mismatch without hiding the time until scripts run.
 */
export function LocalTime({ iso }: { iso: string }) {
  const inBrowser = useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
  const date = new Date(iso);
  const text = new Intl.DateTimeFormat(inBrowser ? undefined : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(inBrowser ? {} : { timeZone: 'UTC' }),
  }).format(date);
  return <time dateTime={iso}>{inBrowser ? text : `${text} UTC`}</time>;
}
