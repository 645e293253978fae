/**
 * Work that has not answered by the deadline has failed: for checks that must answer promptly
 * (readiness, the metrics scrape) whatever the database or mail server does. The work itself goes on;
 * callers take only what it answers in time.
 */
export async function within<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
