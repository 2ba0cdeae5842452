/** Polling helpers for tests that wait on asynchronous work, always bounded. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`,
  );
}

export const FINAL_TASK = ['completed', 'partial_completed', 'failed'];
