// crictl's tables: Go's text/tabwriter as newDefaultTableDisplay sets it up
// (minwidth 20, tabwidth 1, padding 3, pad with spaces). Every cell but a
// line's last is padded to its column's width: the widest cell plus the
// padding, at least the minimum width.

export interface TabwriterOptions {
  minWidth: number;
  padding: number;
}

export const DEFAULT_TABLE: TabwriterOptions = { minWidth: 20, padding: 3 };

/** Renders rows (cells joined by tabs in Go) to text, one line per row. */
export function formatTable(rows: string[][], opts: TabwriterOptions = DEFAULT_TABLE): string {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => {
      if (i === row.length - 1) return; // the last cell is not tab-terminated: no column
      widths[i] = Math.max(widths[i] ?? opts.minWidth, [...cell].length + opts.padding);
    });
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length))).join('') + '\n').join('');
}
