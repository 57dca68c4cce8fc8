import { describe, expect, it } from 'vitest';
import { exitParenthetical, exitStatusOf, mainProcessExited, started, starting, statusText, stopped, stopping, failedWithResult, deactivatedSuccessfully } from './messages.js';

const KUBELET = ['kubelet.service', 'kubelet: The Kubernetes Node Agent'] as const;

describe('systemd journal lines about a unit', () => {
  it.each([
    ['starting', starting(...KUBELET), 'Starting kubelet.service - kubelet: The Kubernetes Node Agent...'],
    ['started', started(...KUBELET), 'Started kubelet.service - kubelet: The Kubernetes Node Agent.'],
    ['stopping', stopping(...KUBELET), 'Stopping kubelet.service - kubelet: The Kubernetes Node Agent...'],
    ['stopped', stopped(...KUBELET), 'Stopped kubelet.service - kubelet: The Kubernetes Node Agent.'],
    ['no description', started('foo.service', ''), 'Started foo.service.'],
    ['killed', mainProcessExited('kubelet.service', exitStatusOf(null, 'SIGKILL')), 'kubelet.service: Main process exited, code=killed, status=9/KILL'],
    ['exit 1', mainProcessExited('kubelet.service', exitStatusOf(1, null)), 'kubelet.service: Main process exited, code=exited, status=1/FAILURE'],
    ['exit 137 has no name', mainProcessExited('kubelet.service', exitStatusOf(137, null)), 'kubelet.service: Main process exited, code=exited, status=137'],
    ['result', failedWithResult('kubelet.service', 'signal'), "kubelet.service: Failed with result 'signal'."],
    ['deactivated', deactivatedSuccessfully('kubelet.service'), 'kubelet.service: Deactivated successfully.'],
  ])('%s', (_name, got, want) => expect(got).toBe(want));
});

describe('exit statuses as systemctl prints them', () => {
  it.each([
    [null, 'SIGKILL', '9/KILL', '(code=killed, signal=KILL)'],
    [null, 'SIGTERM', '15/TERM', '(code=killed, signal=TERM)'],
    [null, 'SIGSEGV', '11/SEGV', '(code=killed, signal=SEGV)'],
    [0, null, '0/SUCCESS', '(code=exited, status=0/SUCCESS)'],
    [2, null, '2/INVALIDARGUMENT', '(code=exited, status=2/INVALIDARGUMENT)'],
    [203, null, '203/EXEC', '(code=exited, status=203/EXEC)'],
    [42, null, '42', '(code=exited, status=42)'],
  ] as const)('code %s signal %s', (code, signal, status, paren) => {
    const e = exitStatusOf(code, signal);
    expect([statusText(e), exitParenthetical(e)]).toEqual([status, paren]);
  });
});
