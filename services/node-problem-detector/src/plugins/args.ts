// `--name=value` arguments of the built-in plugins, as pflag reads them.

export function parsePluginArgs(args: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of args) {
    const m = /^--?([^=]+)(?:=(.*))?$/s.exec(a);
    if (!m) throw new Error(`unknown argument ${JSON.stringify(a)}`);
    out.set(m[1]!, m[2] ?? 'true');
  }
  return out;
}
