import { expect, it } from 'vitest';
import { kubeletExecQuery } from './exec.js';

it('turns PodExecOptions into the kubelet parameters (input/output/error/tty/command)', () => {
  const q = new URLSearchParams('command=sh&command=-c&command=echo hi&container=app&stdin=true&stdout=true&stderr=true&tty=false');
  expect(kubeletExecQuery(q).toString()).toBe('input=1&output=1&error=1&command=sh&command=-c&command=echo+hi');
});
