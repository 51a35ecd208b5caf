// The server's Fastify decorations (`app.board`, `app.jwt`, …) are declared by its plugins; the tests
// read the server through its declarations (project references), so they load those plugins' types.
import type {} from '../src/modules/board/board.plugin.js';
import type {} from '../src/modules/agent/agent-channel.plugin.js';
import type {} from '@fastify/jwt';
