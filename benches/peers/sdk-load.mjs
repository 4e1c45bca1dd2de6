// The peer of the load generator benchmark (benches/benches/load_gen.rs): the official
// TypeScript SDK client calling a tool COUNT times with CONCURRENCY calls in flight (closed loop:
// each worker sends its next call when the last is answered), over stdio, against SERVER.
// Usage: node sdk-load.mjs SDK_DIR SERVER COUNT CONCURRENCY. Prints the calls a second, counted
// from the first call to the last answer (spawn and initialize left out, as Periscope's are).
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [sdkDir, server, count, concurrency] = process.argv.slice(2);
const total = Number(count);
const load = (p) => import(pathToFileURL(join(sdkDir, "dist/esm", p)).href);
const { Client } = await load("client/index.js");
const { StdioClientTransport } = await load("client/stdio.js");

const client = new Client({ name: "bench-peer", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: server, args: [] }));
let sent = 0;
let failed = 0;
const worker = async () => {
  while (sent < total) {
    sent += 1;
    try {
      await client.callTool({ name: "work", arguments: {} });
    } catch {
      failed += 1;
    }
  }
};
const started = process.hrtime.bigint();
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
if (failed > 0) console.error(`${failed} calls failed`);
console.log(total / seconds);
await client.close();
