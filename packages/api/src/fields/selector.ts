// Field selectors (k8s.io/apimachinery/pkg/fields): `k=v,k==v,k!=v` over an
// object's selectable fields. Terms are split on unescaped commas and sorted,
// values unescaped (`\,` `\=` `\\`), errors with upstream's texts.

export type FieldOperator = '=' | '==' | '!=';

export interface FieldRequirement {
  field: string;
  operator: FieldOperator;
  value: string;
}

export type Fields = Readonly<Record<string, string>>;

export class FieldSelectorError extends Error {
  override name = 'FieldSelectorError';
}

/** A conjunction of field terms; a missing field reads as the empty string (fields.Set.Get). */
export class FieldSelector {
  constructor(readonly requirements: readonly FieldRequirement[]) {}

  static everything(): FieldSelector {
    return new FieldSelector([]);
  }

  matches(fields: Fields): boolean {
    return this.requirements.every((r) => {
      const v = Object.prototype.hasOwnProperty.call(fields, r.field) ? fields[r.field] : '';
      return r.operator === '!=' ? v !== r.value : v === r.value;
    });
  }

  empty(): boolean {
    return this.requirements.length === 0;
  }

  /** The value a `field=value` term pins, if any (RequiresExactMatch): informers use it for `spec.nodeName`. */
  requiresExactMatch(field: string): string | undefined {
    const r = this.requirements.find((x) => x.field === field && x.operator !== '!=');
    return r?.value;
  }

  /** Transform: rewrites each term's field (e.g. upstream's label conversions); errors propagate. */
  transform(fn: (field: string, value: string) => { field: string; value: string }): FieldSelector {
    return new FieldSelector(this.requirements.map((r) => ({ ...r, ...fn(r.field, r.value) })));
  }

  /** Selector.String(): `==` prints as `=`, values escaped. */
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator === '!=' ? '!=' : '='}${escapeFieldValue(r.value)}`).join(',');
  }
}

/** EscapeValue: `\` `,` `=` get a backslash. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** UnescapeValue: only `\\`, `\,`, `\=` are escapes; bare `,` or `=` are errors. */
export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      throw new FieldSelectorError(`invalid field selector: unescaped character in value: ${c}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

const TERM_OPERATORS: FieldOperator[] = ['!=', '==', '='];

function splitTerm(term: string): FieldRequirement | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return { field: term.slice(0, i), operator: op, value: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** fields.ParseSelector. Whitespace is significant, as upstream. */
export function parseFieldSelector(selector: string): FieldSelector {
  const parts = splitTerms(selector).sort();
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new FieldSelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    reqs.push({ ...t, value: unescapeFieldValue(t.value) });
  }
  return new FieldSelector(reqs);
}

/** fields.SelectorFromSet / OneTermEqualSelector. */
export function fieldSelectorFromSet(set: Fields): FieldSelector {
  return new FieldSelector(
    Object.keys(set)
      .sort()
      .map((field) => ({ field, operator: '=' as const, value: set[field] as string })),
  );
}
