// The local LLM server as a process, for native tests: prints its base URL, then serves until
// its standard input closes. `--fault KIND[xN]` queues faults (see llm-server.mjs).
import { startLlmServer } from './llm-server.mjs';

const server = await startLlmServer();
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--fault') {
    const [kind, times] = args[++i].split('x');
    server.fault(kind, Number(times ?? 1));
  } else if (args[i] === '--latency') {
    server.latency = Number(args[++i]);
  }
}
console.log(server.url);
process.stdin.resume();
process.stdin.on('end', async () => { await server.close(); process.exit(0); });
