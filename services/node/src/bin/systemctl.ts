#!/usr/bin/env node
import { runMain } from '../node-env.js';
import { systemctl } from '../systemctl.js';

runMain(systemctl);
