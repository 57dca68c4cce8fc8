// Small HTTP helpers for the server tests (loopback only).

export async function get(port: number, path: string): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: await res.text(), headers: res.headers };
}

/** Polls `probe` until it returns a value, at most `timeoutMs` (for cross-process state only). */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<{ value: T; elapsedMs: number }> {
  const start = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return { value: v, elapsedMs: Date.now() - start };
    } catch (err) {
      last = err;
    }
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
