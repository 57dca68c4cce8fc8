#!/usr/bin/env node
import { runMain } from '../node-env.js';
import { kill } from '../kill.js';

runMain(kill);
