// RFC 6902 JSON Patch (upstream: evanphx/json-patch behind
// application/json-patch+json). Operations apply in order to a copy.

import { badPatch, patchNotApplicable } from './errors.js';
import { clone, isObject, jsonEqual } from './util.js';

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

/** RFC 6901: "/a/b~1c" → ["a", "b/c"]. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw badPatch(`json patch: invalid path "${pointer}": must start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function decodeOps(patch: unknown): Operation[] {
  if (!Array.isArray(patch)) throw badPatch('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  return patch.map((raw, i) => {
    if (!isObject(raw) || typeof raw.op !== 'string') throw badPatch(`json patch: operation ${i} has no "op"`);
    if (typeof raw.path !== 'string') throw badPatch(`json patch: operation ${i} (${raw.op}) has no "path"`);
    const op: Operation = { op: raw.op, path: raw.path };
    if (typeof raw.from === 'string') op.from = raw.from;
    if ('value' in raw) op.value = raw.value;
    return op;
  });
}

type Container = Record<string, unknown> | unknown[];

/** The parent container of a pointer and the last token, or a 422 naming the path. */
function locate(doc: unknown, path: string, op: string): { parent: Container; key: string } {
  const tokens = parsePointer(path);
  if (tokens.length === 0) throw patchNotApplicable(`${op} operation does not apply: doc is missing path: "${path}"`);
  let cur: unknown = doc;
  for (const tok of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(tok, cur.length - 1, path, op)];
    else if (isObject(cur)) cur = cur[tok];
    else cur = undefined;
    if (cur === undefined || cur === null) throw patchNotApplicable(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  }
  if (!Array.isArray(cur) && !isObject(cur)) throw patchNotApplicable(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  return { parent: cur, key: tokens[tokens.length - 1]! };
}

function arrayIndex(tok: string, max: number, path: string, op: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(tok)) throw patchNotApplicable(`${op} operation does not apply: invalid array index "${tok}" in "${path}"`);
  const i = Number(tok);
  if (i > max) throw patchNotApplicable(`${op} operation does not apply: doc is missing path: "${path}": index out of range`);
  return i;
}

function get(doc: unknown, path: string, op: string): unknown {
  let cur: unknown = doc;
  for (const tok of parsePointer(path)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(tok, cur.length - 1, path, op)];
    else if (isObject(cur) && Object.prototype.hasOwnProperty.call(cur, tok)) cur = cur[tok];
    else throw patchNotApplicable(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  }
  return cur;
}

function add(doc: unknown, path: string, value: unknown, op = 'add'): unknown {
  if (path === '') return value;
  const { parent, key } = locate(doc, path, op);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : arrayIndex(key, parent.length, path, op);
    parent.splice(i, 0, value);
  } else parent[key] = value;
  return doc;
}

function remove(doc: unknown, path: string, op = 'remove'): unknown {
  const { parent, key } = locate(doc, path, op);
  if (Array.isArray(parent)) parent.splice(arrayIndex(key, parent.length - 1, path, op), 1);
  else {
    if (!Object.prototype.hasOwnProperty.call(parent, key)) throw patchNotApplicable(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
    delete parent[key];
  }
  return doc;
}

/** Applies an RFC 6902 patch (an array of operations) to a copy of `original`. */
export function applyJsonPatch(original: unknown, patch: unknown): unknown {
  let doc = clone(original);
  for (const o of decodeOps(patch)) {
    switch (o.op) {
      case 'add':
        if (!('value' in o)) throw badPatch(`json patch: add operation on "${o.path}" has no "value"`);
        doc = add(doc, o.path, clone(o.value));
        break;
      case 'remove':
        doc = remove(doc, o.path);
        break;
      case 'replace': {
        if (!('value' in o)) throw badPatch(`json patch: replace operation on "${o.path}" has no "value"`);
        if (o.path === '') {
          doc = clone(o.value);
          break;
        }
        get(doc, o.path, 'replace');
        const { parent, key } = locate(doc, o.path, 'replace');
        if (Array.isArray(parent)) parent[arrayIndex(key, parent.length - 1, o.path, 'replace')] = clone(o.value);
        else parent[key] = clone(o.value);
        break;
      }
      case 'move': {
        if (o.from === undefined) throw badPatch(`json patch: move operation on "${o.path}" has no "from"`);
        const v = get(doc, o.from, 'move');
        doc = remove(doc, o.from, 'move');
        doc = add(doc, o.path, v, 'move');
        break;
      }
      case 'copy': {
        if (o.from === undefined) throw badPatch(`json patch: copy operation on "${o.path}" has no "from"`);
        doc = add(doc, o.path, clone(get(doc, o.from, 'copy')), 'copy');
        break;
      }
      case 'test':
        if (!jsonEqual(get(doc, o.path, 'test'), o.value)) throw patchNotApplicable(`testing value ${o.path} failed: test failed`);
        break;
      default:
        throw badPatch(`Unexpected kind: ${o.op}`);
    }
  }
  return doc;
}
