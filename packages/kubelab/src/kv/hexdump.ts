// `hexdump -C`'s canonical view (offset, 16 bytes in two groups of 8, the
// printable ASCII between bars, repeated lines squeezed to `*`), so
// `kubelab kv get --hex` shows what Kubernetes the Hard Way's smoke test
// shows with `etcdctl get ... | hexdump -C`.

const hex8 = (n: number) => n.toString(16).padStart(8, '0');

export function hexdump(buf: Uint8Array): string {
  if (buf.length === 0) return '';
  const lines: string[] = [];
  let prev: string | undefined;
  let squeezed = false;
  for (let off = 0; off < buf.length; off += 16) {
    const row = buf.subarray(off, off + 16);
    const hex = Array.from(row, (b) => b.toString(16).padStart(2, '0'));
    const key = hex.join(' ');
    if (row.length === 16 && key === prev) {
      if (!squeezed) lines.push('*');
      squeezed = true;
      continue;
    }
    prev = key;
    squeezed = false;
    const left = hex.slice(0, 8).join(' ');
    const right = hex.slice(8).join(' ');
    const ascii = Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${hex8(off)}  ${left.padEnd(23)}  ${right.padEnd(23)}  |${ascii}|`);
  }
  lines.push(hex8(buf.length));
  return lines.join('\n') + '\n';
}
