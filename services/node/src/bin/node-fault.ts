#!/usr/bin/env node
import { runMain } from '../node-env.js';
import { nodeFault } from '../fault.js';

runMain((argv, io, env) => nodeFault(argv, io, env));
