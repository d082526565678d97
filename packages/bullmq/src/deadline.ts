/**
 * Settles as `work` does, or rejects with `failure()` once `ms` have passed,
 * whichever comes first. `work` itself is not stopped: it may still finish later.
 */
export async function withinDeadline<T>(work: Promise<T>, ms: number, failure: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(failure()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
