// `tail -c +N` (from the Nth byte on), which kubectl cp --retries pipes tar
// through to resume a copy (`tar cf - PATH | tail -c+N`): just-bash's tail
// reads `+N` as "the last N". This form is answered here, byte-exact; every
// other use of tail goes to just-bash's own.

import { defineCommand, latin1FromBytes, type Command } from 'just-bash';

/** The start offset of `tail -c +N [FILE]` / `-c+N` / `--bytes=+N`, or undefined for any other tail. */
export function fromByteOffset(args: string[]): { start: number; file?: string } | undefined {
  let rest = args;
  let spec: string | undefined;
  const first = rest[0];
  if (first === '-c' || first === '--bytes') {
    spec = rest[1];
    rest = rest.slice(2);
  } else if (first?.startsWith('-c')) {
    spec = first.slice(2);
    rest = rest.slice(1);
  } else if (first?.startsWith('--bytes=')) {
    spec = first.slice('--bytes='.length);
    rest = rest.slice(1);
  }
  const m = spec === undefined ? null : /^\+(\d+)$/.exec(spec);
  if (!m || rest.length > 1 || rest[0]?.startsWith('-')) return undefined;
  // GNU: +0 and +1 both mean the whole input.
  const start = Math.max(0, Number(m[1]) - 1);
  return rest[0] !== undefined ? { start, file: rest[0] } : { start };
}

export function tailCommand(): Command {
  return defineCommand('tail', async (args, ctx) => {
    const from = fromByteOffset(args);
    if (!from) return ctx.origCommand ? ctx.origCommand(args) : { stdout: '', stderr: 'tail: unsupported\n', exitCode: 1 };
    let input: string;
    if (from.file === undefined || from.file === '-') input = latin1FromBytes(ctx.stdin);
    else {
      try {
        input = Buffer.from(await ctx.fs.readFileBuffer(ctx.fs.resolvePath(ctx.cwd, from.file))).toString('latin1');
      } catch {
        return { stdout: '', stderr: `tail: cannot open '${from.file}' for reading: No such file or directory\n`, exitCode: 1 };
      }
    }
    return { stdout: input.slice(from.start), stdoutKind: 'bytes', stdoutEncoding: 'binary', stderr: '', exitCode: 0 };
  });
}
