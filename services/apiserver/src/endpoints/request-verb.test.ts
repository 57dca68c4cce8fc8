import { describe, expect, it } from 'vitest';
import { subresourceVerb } from './request-verb.js';

describe('subresourceVerb', () => {
  it.each([
    ['exec', 'GET', undefined, 'CONNECT'],
    ['exec', 'POST', undefined, 'CONNECT'],
    ['attach', 'POST', undefined, 'CONNECT'],
    ['portforward', 'GET', undefined, 'CONNECT'],
    ['proxy', 'PUT', undefined, 'CONNECT'],
    ['log', 'GET', undefined, 'GET'],
    ['scale', 'PUT', 'application/json', 'PUT'],
    ['scale', 'PATCH', 'application/merge-patch+json', 'PATCH'],
    ['scale', 'PATCH', 'application/apply-patch+yaml; charset=utf-8', 'APPLY'],
    ['eviction', 'POST', 'application/json', 'POST'],
  ])('%s %s (%s) is counted as %s', (sub, method, type, verb) => {
    expect(subresourceVerb(sub, method, type)).toBe(verb);
  });
});
