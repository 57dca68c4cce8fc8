import { describe, expect, it } from 'vitest';
import { joinHostPort } from './host-port.js';

describe('joinHostPort', () => {
  it.each([
    ['127.0.0.1', 6443, '127.0.0.1:6443'],
    ['apiserver', '6444', 'apiserver:6444'],
    ['::1', 10250, '[::1]:10250'],
    ['fd00::a', 80, '[fd00::a]:80'],
  ])('%s and %s', (host, port, want) => expect(joinHostPort(host, port)).toBe(want));
});
