#!/usr/bin/env node
import { runMain } from '../node-env.js';
import { top } from '../ps.js';

runMain(top);
