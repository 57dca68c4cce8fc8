// klog's `file:line` of the code that logged: one stack frame captured only when a line
// is written (Error.captureStackTrace with a limit of 1). Where the frame still names a
// built .js file (no --enable-source-maps), its .map file (read once per file) gives the .ts line.

import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

type Mapper = (line: number, column: number) => string;
const mappers = new Map<string, Mapper>();

function mapperFor(file: string): Mapper {
  let m = mappers.get(file);
  if (m) return m;
  const path = file.startsWith('file:') ? fileURLToPath(file) : file;
  const own = basename(path);
  m = (line) => `${own}:${line}`;
  if (path.endsWith('.js')) {
    try {
      const map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
      m = (line, column) => {
        const e = map.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number };
        return e.originalSource ? `${basename(e.originalSource)}:${(e.originalLine ?? 0) + 1}` : `${own}:${line}`;
      };
    } catch {
      // No source map beside the file: its own name and line.
    }
  }
  mappers.set(file, m);
  return m;
}

// The end of a V8 frame line: `at fn (file:line:col)` or `at file:line:col`.
const FRAME = /\(?([^\s()]+):(\d+):(\d+)\)?$/;

/** `file:line` of whoever called `fn` (fn itself and the frames above it are left out). */
export function callerOf(fn: (...args: never[]) => unknown): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 1;
  const holder: { stack?: string } = {};
  try {
    Error.captureStackTrace(holder, fn);
  } finally {
    Error.stackTraceLimit = limit;
  }
  const frame = holder.stack?.slice(holder.stack.lastIndexOf('\n') + 1) ?? '';
  const hit = FRAME.exec(frame);
  if (!hit) return '???:1';
  return mapperFor(hit[1]!)(Number(hit[2]), Number(hit[3]));
}
