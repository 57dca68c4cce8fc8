import { describe, expect, it } from 'vitest';
import { computeDetachedSignature, detachedTokenIsValid } from './jws.js';

// Upstream's vectors (cluster-bootstrap token/jws), so a kubeadm of Go computes the same bytes.
const CONTENT = 'Hello from the other side. I must have called a thousand times.';

describe('detached JWS of cluster-info', () => {
  it.each([
    ['content and secret', CONTENT, 'my voice is my passcode', 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8'],
    ['empty content', '', 'my voice is my passcode', 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk'],
    ['empty secret', CONTENT, '', 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..UfkqvDGiIFxrMnFseDj9LYJOLNrvjW8aHhF71mvvAs8'],
  ])('signs %s as upstream does', (_name, content, secret, want) => {
    expect(computeDetachedSignature(content, 'joshua', secret)).toBe(want);
  });

  it.each([
    ['the signature', 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8', CONTENT, 'my voice is my passcode', true],
    ['a longer string', 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8foo', CONTENT, 'my voice is my passcode', false],
    ['another secret', 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8', CONTENT, 'not my passcode', false],
    ['changed content', 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8', CONTENT + ' ', 'my voice is my passcode', false],
  ])('checks %s', (_name, sig, content, secret, valid) => {
    expect(detachedTokenIsValid(sig, content, 'joshua', secret)).toBe(valid);
  });
});
