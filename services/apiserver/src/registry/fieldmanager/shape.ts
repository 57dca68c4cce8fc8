// An object's shape: a string that tells apart any two objects whose field
// sets could differ, so a create's field set (and its managedFields entry)
// can be remembered per shape instead of rebuilt per object. Objects made by
// one client or controller mostly share a shape (same keys, different
// scalar values), and the field set of an object created from nothing depends
// on nothing but its keys, which values are objects, arrays or scalars, and
// what list items hold (their keys, a set list's values).
//
// The shape keeps every member name (length-prefixed: names may hold any
// character), every nesting, and, inside arrays, every scalar value as JSON;
// scalars outside arrays are one mark, whatever their type or value (each is
// a leaf of the set alike). Finer than needed is harmless: two objects of one
// field set may have different shapes (keys in another order, other list
// values), they only miss the memo.

/** Shapes longer than this are not remembered (a big object's walk is cheaper than a long key's upkeep). */
export const MAX_SHAPE_LENGTH = 2048;

/** The object's shape, or undefined when it is too long to be worth remembering. */
export function shapeOf(v: Record<string, unknown>): string | undefined {
  const s = objectShape(v, false, '');
  return s === undefined || s.length > MAX_SHAPE_LENGTH ? undefined : s;
}

function objectShape(o: Record<string, unknown>, inArray: boolean, out: string): string | undefined {
  // Checked on the way down too: a deep object stops here, not at the stack's end.
  if (out.length > MAX_SHAPE_LENGTH) return undefined;
  out += '{';
  for (const name in o) {
    const c = o[name];
    if (c === undefined) continue;
    out += `${name.length}:${name}`;
    const next = valueShape(c, inArray, out);
    if (next === undefined) return undefined;
    out = next;
    if (out.length > MAX_SHAPE_LENGTH) return undefined;
  }
  return `${out}}`;
}

function valueShape(v: unknown, inArray: boolean, out: string): string | undefined {
  if (typeof v !== 'object' || v === null) return inArray ? `${out}=${JSON.stringify(v)};` : `${out}.`;
  if (Array.isArray(v)) {
    if (out.length > MAX_SHAPE_LENGTH) return undefined;
    out += '[';
    for (const item of v) {
      // An array's holes and undefined items are JSON's null.
      const next = valueShape(item ?? null, true, out);
      if (next === undefined) return undefined;
      out = `${next},`;
      if (out.length > MAX_SHAPE_LENGTH) return undefined;
    }
    return `${out}]`;
  }
  return objectShape(v as Record<string, unknown>, inArray, out);
}
