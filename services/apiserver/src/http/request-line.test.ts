import { describe, expect, it } from 'vitest';
import { hasInvalidPathEscape, isProbePath } from './request-line.js';

describe('hasInvalidPathEscape', () => {
  const cases: Array<[string, boolean]> = [
    ['/api/v1/namespaces/default/pods', false],
    ['/api/v1/namespaces/default/configmaps/a%2Fb', false],
    ['/api/v1/namespaces/default/configmaps/a%3a', false],
    ['/api/v1/namespaces/%zz/pods', true],
    ['/api/v1/namespaces/default/pods/a%', true],
    ['/api/v1/namespaces/default/pods/a%4', true],
    // Go leaves the query to ParseQuery later; a bad escape there is not a bad request line.
    ['/api/v1/pods?labelSelector=%zz', false],
  ];
  for (const [url, bad] of cases) it(`${url} → ${bad}`, () => expect(hasInvalidPathEscape(url)).toBe(bad));
});

describe('isProbePath', () => {
  const cases: Array<[string, boolean]> = [
    ['/readyz', true],
    ['/readyz/etcd?verbose', true],
    ['/livez?verbose', true],
    ['/healthz', true],
    ['/metrics', true],
    ['/readyzz', false],
    ['/api/v1/pods', false],
    ['/apis', false],
    ['/version', false],
  ];
  for (const [url, probe] of cases) it(`${url} → ${probe}`, () => expect(isProbePath(url)).toBe(probe));
});
