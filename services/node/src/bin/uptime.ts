#!/usr/bin/env node
import { runMain } from '../node-env.js';
import { uptime } from '../meminfo.js';

runMain(uptime);
