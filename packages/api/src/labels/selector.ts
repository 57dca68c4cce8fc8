// Label selectors (k8s.io/apimachinery/pkg/labels): the string syntax kubectl
// sends (`app=web,tier!=db`, `env in (a,b)`, `!legacy`), requirements, and
// matching. Parse errors carry upstream's texts.
import type { LabelSelector as MetaLabelSelector } from '../meta/types.js';
import { fieldErrorMessage, formatBadValue, type FieldError } from '../meta/status.js';
import { child, index, invalid, key as keyPath, notSupported } from '../validation/field.js';
import { isQualifiedName, isValidLabelValue } from '../validation/strings.js';

/** selection.Operator values. */
export type SelectorOperator = '!' | '=' | '==' | 'in' | '!=' | 'notin' | 'exists' | 'gt' | 'lt';

export type Labels = Readonly<Record<string, string>>;

/** A label selector string or a metav1.LabelSelector that cannot be turned into a selector. */
export class SelectorParseError extends Error {
  override name = 'SelectorParseError';
}

const VALID_OPERATORS: SelectorOperator[] = ['!', '=', '==', 'in', '!=', 'notin', 'exists', 'gt', 'lt'];

/** "field: body" as field.Error.Error() prints; a missing path prints as upstream's nil path. */
const fieldErrorText = (e: FieldError): string => `${e.field || '<nil>'}: ${fieldErrorMessage(e)}`;

/** utilerrors.Aggregate text: one error bare, several in brackets, duplicates dropped. */
function aggregate(errs: FieldError[]): string {
  const msgs = [...new Set(errs.map(fieldErrorText))];
  return msgs.length === 1 ? (msgs[0] as string) : `[${msgs.join(', ')}]`;
}

const isInt64 = (s: string): boolean => /^[+-]?[0-9]+$/.test(s) && BigInt(s) <= 9223372036854775807n && BigInt(s) >= -9223372036854775808n;

/** One requirement (`key op values`), validated as labels.NewRequirement. */
export class Requirement {
  private constructor(
    readonly key: string,
    readonly operator: SelectorOperator,
    readonly values: readonly string[],
  ) {}

  /** labels.NewRequirement: throws SelectorParseError with the aggregated field errors. */
  static create(key: string, operator: SelectorOperator, values: readonly string[], path = ''): Requirement {
    const errs = requirementErrors(key, operator, values, path);
    if (errs.length > 0) throw new SelectorParseError(aggregate(errs));
    return new Requirement(key, operator, [...values]);
  }

  /** A requirement known to be valid (SelectorFromValidatedSet skips validation). */
  static fromValidated(key: string, operator: SelectorOperator, values: readonly string[]): Requirement {
    return new Requirement(key, operator, [...values]);
  }

  /** Matches: set operators by membership, Gt/Lt as int64 comparisons, absent keys by operator. */
  matches(labels: Labels): boolean {
    const has = Object.prototype.hasOwnProperty.call(labels, this.key);
    const value = has ? labels[this.key] : undefined;
    switch (this.operator) {
      case 'in':
      case '=':
      case '==':
        return has && this.values.includes(value as string);
      case 'notin':
      case '!=':
        return !has || !this.values.includes(value as string);
      case 'exists':
        return has;
      case '!':
        return !has;
      case 'gt':
      case 'lt': {
        if (!has || !isInt64(value as string) || this.values.length !== 1 || !isInt64(this.values[0] as string)) return false;
        const lv = BigInt(value as string);
        const rv = BigInt(this.values[0] as string);
        return this.operator === 'gt' ? lv > rv : lv < rv;
      }
    }
  }

  /** Requirement.String(): `!k`, `k`, `k=v`, `k in (a,b)` with sorted values. */
  toString(): string {
    let s = this.operator === '!' ? `!${this.key}` : this.key;
    const op: Partial<Record<SelectorOperator, string>> = {
      '=': '=',
      '==': '==',
      '!=': '!=',
      in: ' in ',
      notin: ' notin ',
      gt: '>',
      lt: '<',
    };
    const o = op[this.operator];
    if (o === undefined) return s;
    s += o;
    const vals = this.values.length === 1 ? (this.values[0] as string) : [...this.values].sort().join(',');
    return this.operator === 'in' || this.operator === 'notin' ? `${s}(${vals})` : `${s}${vals}`;
  }
}

function requirementErrors(key: string, op: SelectorOperator, vals: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const msg of labelKeyErrors(key)) errs.push(invalid(child(path, 'key'), key, msg));
  const valuePath = child(path, 'values');
  switch (op) {
    case 'in':
    case 'notin':
      if (vals.length === 0) errs.push(invalid(valuePath, vals, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1) errs.push(invalid(valuePath, vals, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) errs.push(invalid(valuePath, vals, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) errs.push(invalid(valuePath, vals, "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (!isInt64(v)) errs.push(invalid(index(valuePath, i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default:
      errs.push(notSupported(child(path, 'operator'), op, VALID_OPERATORS));
  }
  vals.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length) errs.push(invalid(keyPath(index(valuePath, i), key), v, msgs.join('; ')));
  });
  return errs;
}

/** validateLabelKey: all of IsQualifiedName's complaints joined by "; " in one error. */
function labelKeyErrors(key: string): string[] {
  const msgs = isQualifiedName(key);
  return msgs.length ? [msgs.join('; ')] : [];
}

/** A conjunction of requirements; `nothing` matches no labels at all. */
export class Selector {
  private constructor(
    readonly requirements: readonly Requirement[],
    private readonly nothing = false,
  ) {}

  /** labels.Everything(): the empty selector. */
  static everything(): Selector {
    return new Selector([]);
  }

  /** labels.Nothing(): what a nil metav1.LabelSelector becomes. */
  static nothing(): Selector {
    return new Selector([], true);
  }

  static of(requirements: readonly Requirement[]): Selector {
    return new Selector(sortByKey(requirements));
  }

  matches(labels: Labels | undefined): boolean {
    if (this.nothing) return false;
    const l = labels ?? {};
    return this.requirements.every((r) => r.matches(l));
  }

  /** True for the selector that matches everything. */
  empty(): boolean {
    return !this.nothing && this.requirements.length === 0;
  }

  isNothing(): boolean {
    return this.nothing;
  }

  /** Adds requirements, keeping key order as upstream's Add. */
  add(...reqs: Requirement[]): Selector {
    return new Selector(sortByKey([...this.requirements, ...reqs]), this.nothing);
  }

  /** The value an `=`/`==`/single-value `in` requirement fixes for a label, if any (RequiresExactMatch). */
  requiresExactMatch(label: string): string | undefined {
    for (const r of this.requirements) {
      if (r.key !== label) continue;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
      return undefined;
    }
    return undefined;
  }

  toString(): string {
    return this.requirements.map((r) => r.toString()).join(',');
  }
}

function sortByKey(reqs: readonly Requirement[]): Requirement[] {
  return [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

// ---------------------------------------------------------------- lexer

type Tok = 'error' | 'eos' | 'closedPar' | 'comma' | 'doesNotExist' | 'doubleEquals' | 'equals' | 'gt' | 'identifier' | 'in' | 'lt' | 'notEquals' | 'notIn' | 'openPar';

interface Item {
  tok: Tok;
  lit: string;
}

const STRING_TO_TOKEN: Record<string, Tok> = {
  ')': 'closedPar',
  ',': 'comma',
  '!': 'doesNotExist',
  '==': 'doubleEquals',
  '=': 'equals',
  '>': 'gt',
  in: 'in',
  '<': 'lt',
  '!=': 'notEquals',
  notin: 'notIn',
  '(': 'openPar',
};

const isWhitespace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string): boolean => '=!(),><'.includes(c);

/** Splits the selector into tokens as upstream's Lexer: identifiers run until whitespace or a special symbol. */
function lex(input: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  for (;;) {
    while (pos < input.length && isWhitespace(input[pos] as string)) pos++;
    if (pos >= input.length) {
      items.push({ tok: 'eos', lit: '' });
      return items;
    }
    const c = input[pos] as string;
    if (isSpecial(c)) {
      let buf = '';
      let last: Item | undefined;
      while (pos < input.length && isSpecial(input[pos] as string)) {
        buf += input[pos];
        const t = STRING_TO_TOKEN[buf];
        if (t) last = { tok: t, lit: buf };
        else if (last) break;
        pos++;
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
    } else {
      const start = pos;
      while (pos < input.length && !isSpecial(input[pos] as string) && !isWhitespace(input[pos] as string)) pos++;
      const s = input.slice(start, pos);
      items.push({ tok: STRING_TO_TOKEN[s] ?? 'identifier', lit: s });
    }
  }
}

// ---------------------------------------------------------------- parser

const BINARY_OPERATORS = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];

/** Recursive-descent parser over the token list; contexts as upstream (keywords are plain values inside value lists). */
class Parser {
  private position = 0;
  constructor(private readonly items: Item[]) {}

  private look(values: boolean): Item {
    const it = this.items[this.position] ?? { tok: 'eos', lit: '' };
    if (values && (it.tok === 'in' || it.tok === 'notIn')) return { tok: 'identifier', lit: it.lit };
    return it;
  }

  private next(values: boolean): Item {
    const it = this.look(values);
    if (this.position < this.items.length - 1) this.position++;
    return it;
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.look(true);
      if (tok === 'identifier' || tok === 'doesNotExist') {
        let r: Requirement;
        try {
          r = this.requirement();
        } catch (e) {
          throw new SelectorParseError(`unable to parse requirement: ${(e as Error).message}`);
        }
        reqs.push(r);
        const t = this.next(true);
        if (t.tok === 'eos') return reqs;
        if (t.tok === 'comma') {
          const t2 = this.look(true);
          if (t2.tok !== 'identifier' && t2.tok !== 'doesNotExist') {
            throw new SelectorParseError(`found '${t2.lit}', expected: identifier after ','`);
          }
        } else {
          throw new SelectorParseError(`found '${t.lit}', expected: ',' or 'end of string'`);
        }
      } else if (tok === 'eos') {
        return reqs;
      } else {
        throw new SelectorParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private requirement(): Requirement {
    let op: SelectorOperator | undefined;
    let t = this.next(true);
    if (t.tok === 'doesNotExist') {
      op = '!';
      t = this.next(true);
    }
    if (t.tok !== 'identifier') throw new Error(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const keyErrs = labelKeyErrors(key);
    if (keyErrs.length) throw new Error(fieldErrorText(invalid('', key, keyErrs[0])));
    const after = this.look(true).tok;
    if ((after === 'eos' || after === 'comma') && op === undefined) op = 'exists';
    if (op === 'exists' || op === '!') return Requirement.create(key, op, []);
    const o = this.next(false);
    const ops: Partial<Record<Tok, SelectorOperator>> = {
      in: 'in',
      equals: '=',
      doubleEquals: '==',
      gt: 'gt',
      lt: 'lt',
      notIn: 'notin',
      notEquals: '!=',
    };
    op = ops[o.tok];
    if (op === undefined) throw new Error(`found '${o.lit}', expected: ${BINARY_OPERATORS.join(', ')}`);
    const values = op === 'in' || op === 'notin' ? this.valueSet() : this.exactValue();
    return Requirement.create(key, op, [...values].sort());
  }

  private valueSet(): Set<string> {
    const t = this.next(true);
    if (t.tok !== 'openPar') throw new Error(`found '${t.lit}' expected: '('`);
    const la = this.look(true);
    if (la.tok === 'identifier' || la.tok === 'comma') {
      const s = this.identifiers();
      if (this.next(true).tok !== 'closedPar') throw new Error(`found '${la.lit}', expected: ')'`);
      return s;
    }
    if (la.tok === 'closedPar') {
      this.next(true);
      return new Set(['']);
    }
    throw new Error(`found '${la.lit}', expected: ',', ')' or identifier`);
  }

  private identifiers(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const t = this.next(true);
      if (t.tok === 'identifier') {
        s.add(t.lit);
        const t2 = this.look(true);
        if (t2.tok === 'comma') continue;
        if (t2.tok === 'closedPar') return s;
        throw new Error(`found '${t2.lit}', expected: ',' or ')'`);
      } else if (t.tok === 'comma') {
        if (s.size === 0) s.add('');
        const t2 = this.look(true);
        if (t2.tok === 'closedPar') {
          s.add('');
          return s;
        }
        if (t2.tok === 'comma') {
          this.next(true);
          s.add('');
        }
      } else {
        throw new Error(`found '${t.lit}', expected: ',', or identifier`);
      }
    }
  }

  private exactValue(): Set<string> {
    const la = this.look(true);
    if (la.tok === 'eos' || la.tok === 'comma') return new Set(['']);
    const t = this.next(true);
    if (t.tok === 'identifier') return new Set([t.lit]);
    throw new Error(`found '${t.lit}', expected: identifier`);
  }
}

/** labels.Parse: the string form kubectl's `-l` sends; throws SelectorParseError with upstream's text. */
export function parseLabelSelector(selector: string): Selector {
  return Selector.of(new Parser(lex(selector)).parse());
}

/** labels.SelectorFromSet: one equality requirement per pair, not validated (as upstream today). */
export function selectorFromSet(set: Labels | undefined): Selector {
  if (!set) return Selector.everything();
  return Selector.of(Object.entries(set).map(([k, v]) => Requirement.fromValidated(k, '=', [v])));
}

/** metav1.LabelSelectorAsSelector: nil → Nothing, empty → Everything. */
export function labelSelectorAsSelector(ls: MetaLabelSelector | null | undefined): Selector {
  if (!ls) return Selector.nothing();
  const ml = ls.matchLabels ?? {};
  const me = ls.matchExpressions ?? [];
  if (Object.keys(ml).length + me.length === 0) return Selector.everything();
  const reqs: Requirement[] = Object.entries(ml).map(([k, v]) => Requirement.create(k, '=', [v]));
  const opMap: Record<string, SelectorOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };
  for (const expr of me) {
    const op = opMap[expr.operator];
    if (!op) throw new SelectorParseError(`${formatBadValue(expr.operator)} is not a valid label selector operator`);
    reqs.push(Requirement.create(expr.key, op, [...(expr.values ?? [])]));
  }
  return Selector.of(reqs);
}

/** labels.Set.String(): `k1=v1,k2=v2` with keys sorted. */
export function formatLabels(set: Labels | undefined): string {
  return Object.keys(set ?? {})
    .sort()
    .map((k) => `${k}=${(set as Labels)[k]}`)
    .join(',');
}

/** Whether every pair of `selector` appears in `labels` (labels.SelectorFromSet(selector).Matches). */
export function matchesSet(selector: Labels | undefined, labels: Labels | undefined): boolean {
  const l = labels ?? {};
  return Object.entries(selector ?? {}).every(([k, v]) => Object.prototype.hasOwnProperty.call(l, k) && l[k] === v);
}
