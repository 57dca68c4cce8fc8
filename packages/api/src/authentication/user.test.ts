import { describe, expect, it } from 'vitest';
import { bearerTokenOf, fromApiUserInfo, toApiUserInfo, withAuthenticatedGroup } from './user.js';

describe('who a request is', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc ', 'abc'],
    ['Basic YWJj', undefined],
    ['Bearer ', undefined],
    [undefined, undefined],
  ])('bearerTokenOf(%j) = %j', (h, want) => expect(bearerTokenOf(h)).toBe(want));

  it('adds system:authenticated once', () => {
    expect(withAuthenticatedGroup({ name: 'jane', groups: ['dev'] })).toEqual({ name: 'jane', groups: ['dev', 'system:authenticated'] });
    const already = { name: 'jane', groups: ['system:authenticated'] };
    expect(withAuthenticatedGroup(already)).toBe(already);
  });

  it('crosses the API as authentication/v1 UserInfo, empty fields omitted', () => {
    const jane = { name: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a'] } };
    expect(toApiUserInfo(jane)).toEqual({ username: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['a'] } });
    expect(toApiUserInfo({ name: 'x', groups: [] })).toEqual({ username: 'x' });
    expect(fromApiUserInfo(toApiUserInfo(jane))).toEqual(jane);
    expect(fromApiUserInfo(undefined)).toEqual({ name: '', groups: [] });
  });
});
