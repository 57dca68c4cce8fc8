import { describe, expect, it } from 'vitest';
import { formatLabels, labelSelectorAsSelector, matchesSet, parseLabelSelector, Requirement, Selector, selectorFromSet } from './selector.js';

const KEY_REGEX_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_REGEX_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('parseLabelSelector', () => {
  it.each([
    ['empty selects everything', '', '', { a: 'b' }, true],
    ['equality', 'app=web', 'app=web', { app: 'web' }, true],
    ['equality mismatch', 'app=web', 'app=web', { app: 'db' }, false],
    ['double equals keeps ==', 'app==web', 'app==web', { app: 'web' }, true],
    ['not equals matches absent key', 'app!=web', 'app!=web', {}, true],
    ['not equals rejects same value', 'app!=web', 'app!=web', { app: 'web' }, false],
    ['in sorts values', 'env in (prod, dev)', 'env in (dev,prod)', { env: 'dev' }, true],
    ['in rejects absent key', 'env in (prod)', 'env in (prod)', {}, false],
    ['notin matches absent key', 'env notin (prod)', 'env notin (prod)', {}, true],
    ['exists', 'app', 'app', { app: '' }, true],
    ['does not exist', '!app', '!app', { app: 'x' }, false],
    ['requirements sorted by key', 'z=1,a=2', 'a=2,z=1', { a: '2', z: '1' }, true],
    ['empty value after =', 'a=', 'a=', { a: '' }, true],
    ['gt compares integers', 'n>5', 'n>5', { n: '7' }, true],
    ['lt compares integers', 'n<5', 'n<5', { n: '7' }, false],
    ['keyword in as a value', 'a in (in,notin)', 'a in (in,notin)', { a: 'notin' }, true],
    ['prefixed key', 'example.com/tier=db', 'example.com/tier=db', { 'example.com/tier': 'db' }, true],
    ['whitespace tolerated', '  a = b ,  c ', 'a=b,c', { a: 'b', c: '' }, true],
  ])('%s: %j', (_name, input, printed, labels, want) => {
    const s = parseLabelSelector(input);
    expect(s.toString()).toBe(printed);
    expect(s.matches(labels)).toBe(want);
  });

  it.each([
    ['missing operator', 'a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['trailing comma', 'a=b,', "found '', expected: identifier after ','"],
    ['leading operator', '=b', "found '=', expected: !, identifier, or 'end of string'"],
    ['in without parens', 'a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['unclosed set', 'a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['!key followed by value', '!a=b', "found '=', expected: ',' or 'end of string'"],
    ['operator as value', 'a=!b', "unable to parse requirement: found '!', expected: identifier"],
    ['bad key', 'a$=b', `unable to parse requirement: <nil>: Invalid value: "a$": ${KEY_REGEX_MSG}`],
    ['bad value', 'a=b$c', `unable to parse requirement: values[0][a]: Invalid value: "b$c": ${VALUE_REGEX_MSG}`],
    ['gt non-integer', 'a>b', `unable to parse requirement: values[0]: Invalid value: "b": for 'Gt', 'Lt' operators, the value must be an integer`],
  ])('%s: %j fails with upstream text', (_name, input, message) => {
    expect(() => parseLabelSelector(input)).toThrow(message);
  });
});

describe('labelSelectorAsSelector', () => {
  it('treats nil as nothing and empty as everything', () => {
    expect(labelSelectorAsSelector(undefined).matches({ a: 'b' })).toBe(false);
    expect(labelSelectorAsSelector({}).empty()).toBe(true);
    expect(labelSelectorAsSelector({}).matches({})).toBe(true);
  });

  it('combines matchLabels and matchExpressions sorted by key', () => {
    const s = labelSelectorAsSelector({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['fe', 'be'] },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    expect(s.toString()).toBe('app=web,!legacy,tier in (be,fe)');
    expect(s.matches({ app: 'web', tier: 'fe' })).toBe(true);
    expect(s.matches({ app: 'web', tier: 'fe', legacy: 'x' })).toBe(false);
  });

  it('rejects an unknown operator with upstream text', () => {
    expect(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Gt' as 'In' }] })).toThrow('"Gt" is not a valid label selector operator');
  });

  it('rejects In with no values', () => {
    expect(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(
      "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
    );
  });
});

describe('sets', () => {
  it('selectorFromSet and matchesSet agree', () => {
    expect(selectorFromSet({ b: '2', a: '1' }).toString()).toBe('a=1,b=2');
    expect(matchesSet({ a: '1' }, { a: '1', b: '2' })).toBe(true);
    expect(matchesSet({ a: '1' }, { b: '2' })).toBe(false);
    expect(formatLabels({ b: '2', a: '1' })).toBe('a=1,b=2');
  });

  it('nothing matches no labels; requiresExactMatch finds pinned values', () => {
    expect(Selector.nothing().matches({})).toBe(false);
    expect(parseLabelSelector('a=1,b in (x)').requiresExactMatch('b')).toBe('x');
    expect(Requirement.create('a', 'exists', []).matches({ a: 'x' })).toBe(true);
  });
});
