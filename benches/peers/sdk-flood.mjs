// The peer of the store benchmark (benches/benches/store.rs): the official TypeScript SDK client
// consuming a notification flood from the same fixture, every notification delivered to a
// handler. Usage: node sdk-flood.mjs SDK_DIR SERVER N. Prints the seconds from connect (spawn and
// initialize included) to the Nth notification.
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [sdkDir, server, count] = process.argv.slice(2);
const want = Number(count);
const load = (p) => import(pathToFileURL(join(sdkDir, "dist/esm", p)).href);
const { Client } = await load("client/index.js");
const { StdioClientTransport } = await load("client/stdio.js");

const client = new Client({ name: "bench-peer", version: "1.0.0" });
let seen = 0;
let done;
const finished = new Promise((resolve) => (done = resolve));
client.fallbackNotificationHandler = async () => {
  seen += 1;
  if (seen === want) done();
};
const started = process.hrtime.bigint();
await client.connect(new StdioClientTransport({ command: server, args: ["flood", count] }));
await finished;
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(seconds);
await client.close();
