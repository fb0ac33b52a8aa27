#!/usr/bin/env node
// The `arena` command: the bundle npm run build writes to cli/dist/ (scripts/bundle-cli.mjs).
// A file of its own, so npm links the bin before the bundle is built.
import '../dist/main.js';
