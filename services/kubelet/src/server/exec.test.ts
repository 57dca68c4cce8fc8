import { describe, expect, it } from 'vitest';
import { execOptions, streamOptions } from './exec.js';

describe('execOptions (the kubelet /exec query)', () => {
  it.each([
    ['command=ls&output=1&error=1', { ok: true, cmd: ['ls'], stdin: false, stdout: true, stderr: true, tty: false }],
    ['command=sh&input=1&output=1&error=1&tty=1', { ok: true, cmd: ['sh'], stdin: true, stdout: true, stderr: false, tty: true }],
    ['command=sh&command=-c&command=exit%203&output=1', { ok: true, cmd: ['sh', '-c', 'exit 3'], stdin: false, stdout: true, stderr: false, tty: false }],
    ['command=ls', { ok: false, message: 'you must specify at least 1 of stdin, stdout, stderr' }],
    ['output=1', { ok: false, message: 'you must specify at least one command for the container' }],
  ])('%s', (query, want) => expect(execOptions(new URLSearchParams(query))).toEqual(want));
});

describe('streamOptions (the kubelet /attach query: no command)', () => {
  it.each([
    ['input=1&output=1&tty=1', { ok: true, stdin: true, stdout: true, stderr: false, tty: true }],
    ['output=1&error=1', { ok: true, stdin: false, stdout: true, stderr: true, tty: false }],
    ['tty=1', { ok: false, message: 'you must specify at least 1 of stdin, stdout, stderr' }],
  ])('%s', (query, want) => expect(streamOptions(new URLSearchParams(query))).toEqual(want));
});
