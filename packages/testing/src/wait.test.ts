import { describe, expect, it } from 'vitest';
import { retrying, waitFor } from './wait.js';

describe('waitFor', () => {
  it('resolves with the first value other than undefined or false', async () => {
    let n = 0;
    expect(await waitFor('the third call', () => (++n >= 3 ? n : n === 1 ? undefined : false), { everyMs: 1 })).toBe(3);
  });

  it('times out naming what it waited for and the last error', async () => {
    await expect(waitFor('a miracle', () => Promise.reject(new Error('not yet')), { timeoutMs: 20, everyMs: 5 })).rejects.toThrow(/^timed out after 20 ms waiting for a miracle: not yet$/);
  });

  it('gives up with the reason once its signal is aborted, before the timeout', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('the server exited')), 20);
    const started = Date.now();
    await expect(waitFor('a dead server', () => undefined, { timeoutMs: 10_000, everyMs: 5, signal: ac.signal })).rejects.toThrow('the server exited');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('retrying', () => {
  const transient = (e: unknown) => e instanceof Error && e.message === 'busy';

  it('retries transient errors until fn resolves', async () => {
    let n = 0;
    expect(await retrying(async () => (++n < 3 ? Promise.reject(new Error('busy')) : n), transient, { everyMs: 1 })).toBe(3);
  });

  it('throws any other error at once, and a transient one once the time is up', async () => {
    let n = 0;
    await expect(retrying(() => (++n, Promise.reject(new Error('broken'))), transient, { everyMs: 1 })).rejects.toThrow('broken');
    expect(n).toBe(1);
    await expect(retrying(() => Promise.reject(new Error('busy')), transient, { timeoutMs: 20, everyMs: 5 })).rejects.toThrow('busy');
  });
});
