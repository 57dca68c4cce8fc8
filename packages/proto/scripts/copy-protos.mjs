// Copies the wire contracts from the repository's proto/ into dist/proto so the
// package carries them when deployed on its own (pnpm deploy in the images).
import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const from = fileURLToPath(new URL('../../../proto', import.meta.url));
const to = fileURLToPath(new URL('../dist/proto', import.meta.url));
cpSync(from, to, { recursive: true });
