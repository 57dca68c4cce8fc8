// Regenerates src/generated from proto/ with proto-loader-gen-types, using the
// same options as LOADER_OPTIONS in src/load.ts, then adds the `.js`
// extensions that ESM (NodeNext) needs on relative imports.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROTOS = ['kubelab/apiserver/v1/apiserver.proto', 'runtime/v1/api.proto'];

const pkg = fileURLToPath(new URL('..', import.meta.url));
const out = join(pkg, 'src/generated');
rmSync(out, { recursive: true, force: true });
execFileSync(
  'pnpm',
  [
    'exec', 'proto-loader-gen-types',
    '--longs=String', '--enums=String', '--defaults', '--oneofs',
    '--grpcLib=@grpc/grpc-js', '--includeDirs=../../proto', '--outDir=src/generated',
    ...PROTOS.filter((p) => { try { return statSync(join(pkg, '../../proto', p)).isFile(); } catch { return false; } }),
  ],
  { cwd: pkg, stdio: 'inherit' },
);

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith('.ts')) {
      const text = readFileSync(p, 'utf8').replace(/(from '\.{1,2}\/[^']+?)(?<!\.js)'/g, "$1.js'");
      writeFileSync(p, text);
    }
  }
}
walk(out);
