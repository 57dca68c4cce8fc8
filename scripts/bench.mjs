// `pnpm bench`: runs every workspace package's `bench` script one after the
// other (never in parallel: these machines have 2 cores and the figures are
// ratios measured within one run), then repeats the JSON result lines.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);
const pkgs = [];
for (const group of ['packages', 'services', 'test']) {
  const dirs = group === 'test' ? [''] : readdirSync(join(root, group));
  for (const d of dirs) {
    const file = join(root, group, d, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    if (pkg.scripts?.bench && (only.length === 0 || only.some((o) => pkg.name.includes(o)))) {
      pkgs.push({ name: pkg.name, dir: join(root, group, d) });
    }
  }
}

const results = [];
let failures = 0;
for (const p of pkgs) {
  process.stdout.write(`\n### ${p.name}\n`);
  const code = await new Promise((resolve) => {
    const child = spawn('pnpm', ['run', '--silent', 'bench'], { cwd: p.dir, stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line.startsWith('{"bench"')) results.push(line);
      }
    });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  if (code !== 0) {
    failures++;
    process.stdout.write(`${p.name}: bench failed (exit ${code})\n`);
  }
}
process.stdout.write(`\n### results (${new Date().toISOString()})\n${results.join('\n')}\n`);
process.exit(failures ? 1 : 0);
