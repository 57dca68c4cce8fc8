#!/usr/bin/env node
import { runMain } from '../node-env.js';
import { df } from '../df.js';

runMain(df);
