#!/usr/bin/env node
import { runMain } from '../node-env.js';
import { free } from '../meminfo.js';

runMain(free);
