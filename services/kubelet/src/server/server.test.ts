import { describe, expect, it } from 'vitest';
import { previousInstance } from './server.js';

describe('previousInstance (kubectl logs -p from the runtime list, newest first)', () => {
  it('is the newest exited instance behind a running current one', () => {
    expect(
      previousInstance([
        { id: 'c3', state: 'running' },
        { id: 'c2', state: 'exited' },
        { id: 'c1', state: 'exited' },
      ])?.id,
    ).toBe('c2');
  });
  it('is the newest instance itself while it waits in back-off (exited)', () => {
    expect(
      previousInstance([
        { id: 'c2', state: 'exited' },
        { id: 'c1', state: 'exited' },
      ])?.id,
    ).toBe('c2');
  });
  it('is absent for a first instance still running or just created', () => {
    expect(previousInstance([{ id: 'c1', state: 'running' }])).toBeUndefined();
    expect(previousInstance([{ id: 'c2', state: 'created' }])).toBeUndefined();
    expect(previousInstance([])).toBeUndefined();
  });
});
