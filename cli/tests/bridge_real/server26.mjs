#!/usr/bin/env node
// A server that speaks only 2026-07-28, for cli/tests/bridge_real.rs: the TypeScript SDK v2's
// `McpServer` served by `serveStdio` with `legacy: 'reject'` (an `initialize` is answered with the
// unsupported-version error; only 2026-07-28 requests, with their per-request `_meta`, are served).
// Tools `echo` and `add`, `confirm` (asks the client with an InputRequiredResult: a form
// elicitation), a text resource and a prompt with an argument.

import { serveStdio } from '@modelcontextprotocol/server/stdio';

import { build } from './server26-build.mjs';

serveStdio(build, { legacy: 'reject' });
