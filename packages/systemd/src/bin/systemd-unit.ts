#!/usr/bin/env node
import { runUnit } from '../run-unit.js';

runUnit(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    process.stderr.write(`systemd-unit: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
