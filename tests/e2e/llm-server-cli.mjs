// The local LLM server as a process, for native tests: prints its base URL, then serves until
// its standard input closes. `--fault KIND[xN]` queues faults (see llm-server.mjs);
// `--key K` refuses requests without that key; `--persona P` answers as provider P does;
// `--log FILE` writes the body of every call it answered there, one per line, when it stops.
import { writeFileSync } from 'node:fs';
import { startLlmServer } from './llm-server.mjs';

const args = process.argv.slice(2);
const keyAt = args.indexOf('--key');
const personaAt = args.indexOf('--persona');
const server = await startLlmServer({ key: keyAt >= 0 ? args[keyAt + 1] : null, persona: personaAt >= 0 ? args[personaAt + 1] : null });
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--fault') {
    const [kind, times] = args[++i].split('x');
    server.fault(kind, Number(times ?? 1));
  } else if (args[i] === '--key' || args[i] === '--persona' || args[i] === '--log') {
    i++;
  } else if (args[i] === '--rate') {
    // CALLS/WINDOW_MS/DIALECT: a key's rate limit.
    const [calls, windowMs, dialect] = args[++i].split('/');
    server.rateLimit(Number(calls), Number(windowMs), dialect);
  } else if (args[i] === '--latency') {
    server.latency = Number(args[++i]);
  }
}
console.log(server.url);
process.stdin.resume();
const logAt = args.indexOf('--log');
process.stdin.on('end', async () => {
  if (logAt >= 0) {
    const bodies = server.requests.filter((r) => r.method === 'POST').map((r) => JSON.stringify(r.body));
    writeFileSync(args[logAt + 1], bodies.map((b) => `${b}\n`).join(''));
  }
  await server.close();
  process.exit(0);
});
