import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { drainWaiter } from './backpressure.js';

describe('drainWaiter', () => {
  it('resolves true on drain and leaves no listeners behind', async () => {
    const s = new EventEmitter();
    const wait = drainWaiter(new Promise(() => undefined));
    const p = wait(s, ['close']);
    s.emit('drain');
    await expect(p).resolves.toBe(true);
    expect([s.listenerCount('drain'), s.listenerCount('close')]).toEqual([0, 0]);
  });

  it('resolves false when the connection closes first', async () => {
    const s = new EventEmitter();
    const p = drainWaiter(undefined)(s, ['close', 'cancelled']);
    s.emit('cancelled');
    await expect(p).resolves.toBe(false);
    expect(s.listenerCount('close')).toBe(0);
  });

  it('resolves false once the watch ended, and at once for every later wait', async () => {
    let end!: () => void;
    const wait = drainWaiter(new Promise<void>((r) => (end = r)));
    const s = new EventEmitter();
    const p = wait(s, ['close']);
    end();
    await expect(p).resolves.toBe(false);
    expect(s.listenerCount('drain')).toBe(0);
    await expect(wait(s, ['close'])).resolves.toBe(false);
  });

  it('does not wait on a destroyed stream', async () => {
    const s = Object.assign(new EventEmitter(), { destroyed: true });
    await expect(drainWaiter(undefined)(s, ['close'])).resolves.toBe(false);
  });
});
