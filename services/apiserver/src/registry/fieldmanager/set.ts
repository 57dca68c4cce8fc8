// A set of field paths as a trie (structured-merge-diff fieldpath.Set: members
// and children per element), with the set algebra the field manager needs and
// the FieldsV1 encoding: a member with children carries `".": {}`, a member
// leaf is `{}`, a node that is only a prefix carries just its children.
// Results of the algebra share subtrees with their operands: a set is built
// once (insert) and never changed after it takes part in one.

import { isElement, type Path, type PathElement } from './path.js';

export class FieldSet {
  /** Whether the path ending here is in the set (unused at the root). */
  member = false;
  children: Map<PathElement, FieldSet> | undefined;

  get empty(): boolean {
    return !this.member && (this.children === undefined || this.children.size === 0);
  }

  child(e: PathElement): FieldSet | undefined {
    return this.children?.get(e);
  }

  private ensure(e: PathElement): FieldSet {
    this.children ??= new Map();
    let c = this.children.get(e);
    if (!c) this.children.set(e, (c = new FieldSet()));
    return c;
  }

  insert(path: Path): this {
    if (path.length === 0) return this;
    let n = this.ensure(path[0]!);
    for (let i = 1; i < path.length; i++) n = n.ensure(path[i]!);
    n.member = true;
    return this;
  }

  /** The node at a path (a member, or a prefix of members), if any. */
  at(path: Path): FieldSet | undefined {
    if (path.length === 0) return this;
    let n = this.child(path[0]!);
    for (let i = 1; i < path.length && n; i++) n = n.child(path[i]!);
    return n;
  }

  has(path: Path): boolean {
    return path.length > 0 && this.at(path)?.member === true;
  }

  /** Every member path, depth first in element order. */
  paths(prefix: PathElement[] = []): PathElement[][] {
    const out: PathElement[][] = [];
    const walk = (n: FieldSet, p: PathElement[]) => {
      if (n.member && p.length) out.push([...p]);
      for (const e of sortedKeys(n.children)) {
        p.push(e);
        walk(n.children!.get(e)!, p);
        p.pop();
      }
    };
    walk(this, prefix);
    return out;
  }

  size(): number {
    let count = this.member ? 1 : 0;
    for (const c of this.children?.values() ?? []) count += c.size();
    return count;
  }

  equals(o: FieldSet): boolean {
    if (this.member !== o.member) return false;
    const a = this.children?.size ?? 0;
    if (a !== (o.children?.size ?? 0)) return false;
    for (const [e, c] of this.children ?? []) {
      const d = o.child(e);
      if (!d || !c.equals(d)) return false;
    }
    return true;
  }
}

function sortedKeys(m: Map<PathElement, FieldSet> | undefined): PathElement[] {
  return m ? [...m.keys()].sort(compareElements) : [];
}

const ORDER: Record<string, number> = { 'f:': 0, 'k:': 1, 'v:': 2, 'i:': 3 };

/** Upstream's element order: field names, then keys, values, indexes; within a kind by text. */
export function compareElements(a: PathElement, b: PathElement): number {
  const d = (ORDER[a.slice(0, 2)] ?? 4) - (ORDER[b.slice(0, 2)] ?? 4);
  if (d !== 0) return d;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function union(a: FieldSet, b: FieldSet): FieldSet {
  if (b.empty) return a;
  if (a.empty) return b;
  const out = new FieldSet();
  out.member = a.member || b.member;
  out.children = new Map(a.children);
  for (const [e, c] of b.children ?? []) {
    const mine = out.children.get(e);
    out.children.set(e, mine ? union(mine, c) : c);
  }
  return out;
}

/** Members of `a` that are not members of `b` (upstream Set.Difference); `a` itself when nothing goes. */
export function difference(a: FieldSet, b: FieldSet): FieldSet {
  if (b.empty || a.empty) return a;
  const member = a.member && !b.member;
  let changed = member !== a.member;
  let children: Map<PathElement, FieldSet> | undefined;
  for (const [e, c] of a.children ?? []) {
    const other = b.child(e);
    const d = other ? difference(c, other) : c;
    if (d !== c) changed = true;
    if (!d.empty) (children ??= new Map()).set(e, d);
  }
  if (!changed) return a;
  const out = new FieldSet();
  out.member = member;
  out.children = children;
  return out;
}

/** Members of both. */
export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  const out = new FieldSet();
  out.member = a.member && b.member;
  if (!a.children || !b.children) return out;
  const [small, big] = a.children.size <= b.children.size ? [a, b] : [b, a];
  for (const [e, c] of small.children!) {
    const other = big.child(e);
    if (!other) continue;
    const i = intersection(c, other);
    if (!i.empty) (out.children ??= new Map()).set(e, i);
  }
  return out;
}

/** FieldsV1's JSON object (members and children in upstream's element order). */
export function toFieldsV1(s: FieldSet): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of sortedKeys(s.children)) {
    const c = s.children!.get(e)!;
    if (c.children?.size) {
      const inner = toFieldsV1(c);
      out[e] = c.member ? { '.': {}, ...inner } : inner;
    } else if (c.member) out[e] = {};
  }
  return out;
}

/** Reads FieldsV1; throws an Error saying what is wrong (the caller words the API error). */
export function fromFieldsV1(v: unknown): FieldSet {
  const s = new FieldSet();
  read(v, s, 0);
  return s;
}

function read(v: unknown, into: FieldSet, depth: number): void {
  if (depth > 100) throw new Error('FieldsV1 is nested too deeply');
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('expected an object');
  for (const [k, c] of Object.entries(v)) {
    if (k === '.') {
      into.member = true;
      continue;
    }
    if (!isElement(k)) throw new Error(`parsing JSON: unknown path element ${JSON.stringify(k)}`);
    into.children ??= new Map();
    const n = new FieldSet();
    read(c, n, depth + 1);
    // `{}` is a member leaf; an object with children is a member only with ".".
    if (!n.children?.size) n.member = true;
    into.children.set(k, n);
  }
}
