#!/usr/bin/env node
import { runMain } from '../node-env.js';
import { journalctl } from '../journalctl.js';

runMain(journalctl);
