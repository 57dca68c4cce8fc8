#!/usr/bin/env node
import { runMain } from '../node-env.js';
import { ps } from '../ps.js';

runMain(ps);
