#!/usr/bin/env node
import { runMain } from '../node-env.js';
import { dmesg } from '../dmesg.js';

runMain(dmesg);
