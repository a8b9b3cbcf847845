#!/usr/bin/env node
// Launcher of the command-line client (src/client/main.ts): registers tsx, as `npm start`
// does with --import tsx, so the bin runs with plain node after `npm ci`.
import { register } from 'tsx/esm/api';

register();
await import('../src/client/main.ts');
