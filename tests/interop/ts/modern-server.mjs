// A 2026-07-28 MCP server built on the official TypeScript SDK v2 (@modelcontextprotocol/server,
// with @modelcontextprotocol/node for plain node:http), for tests/tests/interop_modern.rs:
// Periscope against a modern-era server nobody here wrote.
//
//   node modern-server.mjs stdio   # serveStdio: JSON-RPC lines on stdin/stdout
//   node modern-server.mjs http    # createMcpHandler on 127.0.0.1, a free port; prints its URL
//
// Both entries take a factory that builds a fresh McpServer per connection (stdio) or per
// request (HTTP), serve the 2026-07-28 era (server/discover, per-request _meta, no initialize)
// and, by default, 2025 clients from the same registrations. What it offers:
//
//   tools      echo(message), add(a, b); book_table(party) asks for input in two rounds (the
//              guest's name, then a confirmation naming that guest; the name rides the
//              signed requestState between them); touch_note() changes note://greeting and the
//              tool list, which a subscriptions/listen stream hears
//   resource   note://greeting (text)
//   prompt     greet(name)

import { createServer } from 'node:http';

import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import {
    McpServer,
    acceptedContent,
    createMcpHandler,
    createRequestStateCodec,
    inputRequired,
    inputResponse
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

const note = { text: 'hello from typescript', touched: 0 };

// requestState comes back from the client, so it is signed (a fresh key per process: the
// tests talk to one process).
const stateCodec = createRequestStateCodec({ key: crypto.getRandomValues(new Uint8Array(32)), ttlSeconds: 600 });

const guestSchema = z.object({ name: z.string().meta({ title: 'Who is the table for?' }) });
const confirmSchema = z.object({ confirm: z.boolean().meta({ title: 'Book it?' }) });

/** True when the client answered the input request under `key` with decline or cancel: the
 *  call ends there (asking again would loop until the client's round limit). */
function refused(responses, key) {
    const view = inputResponse(responses, key);
    return view.kind === 'elicit' && view.action !== 'accept';
}

/** How touch_note tells listen streams: through the HTTP handler's notifier, or (stdio) the
 *  instance itself, which serveStdio routes onto the open subscription stream. */
let publish = undefined;

function build() {
    const server = new McpServer(
        { name: 'periscope-interop-typescript', version: '1.0.0' },
        {
            instructions: "A fixture for Periscope's interop tests.",
            capabilities: { resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } },
            requestState: { verify: stateCodec.verify }
        }
    );

    server.registerTool(
        'echo',
        { description: 'Echo the message back.', inputSchema: z.object({ message: z.string() }) },
        async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] })
    );

    server.registerTool(
        'add',
        { description: 'Add two integers.', inputSchema: z.object({ a: z.number().int(), b: z.number().int() }) },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] })
    );

    server.registerTool(
        'book_table',
        {
            description: "Book a table: asks for the guest's name, then for a confirmation (two rounds).",
            inputSchema: z.object({ party: z.number().int() })
        },
        async ({ party }, ctx) => {
            const state = ctx.mcpReq.requestState();
            if (refused(ctx.mcpReq.inputResponses, 'guest') || refused(ctx.mcpReq.inputResponses, 'confirm')) {
                return { content: [{ type: 'text', text: 'Not booked: the question was declined.' }], isError: true };
            }
            if (state?.guest === undefined) {
                const guest = acceptedContent(ctx.mcpReq.inputResponses, 'guest', guestSchema);
                if (guest === undefined) {
                    return inputRequired({
                        inputRequests: {
                            guest: inputRequired.elicit({ message: `A table for ${party}: whose name?`, requestedSchema: guestSchema })
                        }
                    });
                }
                // Mint only what the answer above proved: the guest's name.
                return inputRequired({
                    inputRequests: {
                        confirm: inputRequired.elicit({
                            message: `Book a table for ${party} under ${guest.name}?`,
                            requestedSchema: confirmSchema
                        })
                    },
                    requestState: await stateCodec.mint({ guest: guest.name })
                });
            }
            const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmSchema);
            if (confirmed?.confirm !== true) {
                return { content: [{ type: 'text', text: 'Not booked.' }] };
            }
            return { content: [{ type: 'text', text: `Booked a table for ${party} under ${state.guest}.` }] };
        }
    );

    server.registerTool(
        'touch_note',
        { description: 'Change note://greeting and the tool list (listen streams hear both).' },
        async () => {
            note.touched += 1;
            note.text = `hello from typescript, touched ${note.touched} time(s)`;
            if (publish) {
                publish.resourceUpdated('note://greeting');
                publish.toolsChanged();
            } else {
                await server.server.sendResourceUpdated({ uri: 'note://greeting' });
                await server.server.sendToolListChanged();
            }
            return { content: [{ type: 'text', text: `touched ${note.touched} time(s)` }] };
        }
    );

    server.registerResource(
        'greeting',
        'note://greeting',
        { description: 'A short note.', mimeType: 'text/plain' },
        async uri => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: note.text }] })
    );

    server.registerPrompt(
        'greet',
        { description: 'Greet someone by name.', argsSchema: z.object({ name: z.string() }) },
        ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Please greet ${name} warmly.` } }] })
    );

    return server;
}

const mode = process.argv[2] ?? 'stdio';
if (mode === 'stdio') {
    serveStdio(build);
} else if (mode === 'http') {
    const handler = createMcpHandler(build);
    publish = handler.notify;
    const nodeHandler = toNodeHandler(handler);
    const validateHost = localhostHostValidation();
    const validateOrigin = localhostOriginValidation();
    const http = createServer((req, res) => {
        if (!validateHost(req, res) || !validateOrigin(req, res)) return;
        void nodeHandler(req, res);
    });
    // Port 0: the kernel picks a free one; the URL is the first stdout line (the tests wait for it).
    http.listen(0, '127.0.0.1', () => {
        console.log(`http://127.0.0.1:${http.address().port}/mcp`);
    });
} else {
    console.error(`usage: node modern-server.mjs stdio|http`);
    process.exit(2);
}
