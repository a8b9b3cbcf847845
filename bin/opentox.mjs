#!/usr/bin/env node
// Launcher of the command-line client (src/client/main.ts), built to dist/ by `npm ci`.
await import('../dist/client/main.js');
