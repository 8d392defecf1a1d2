// The local LLM server as a process, for native tests: prints its base URL, then serves until
// its standard input closes. `--fault KIND[xN]` queues faults (see llm-server.mjs);
// `--key K` refuses requests without that key.
import { startLlmServer } from './llm-server.mjs';

const args = process.argv.slice(2);
const keyAt = args.indexOf('--key');
const server = await startLlmServer({ key: keyAt >= 0 ? args[keyAt + 1] : null });
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--fault') {
    const [kind, times] = args[++i].split('x');
    server.fault(kind, Number(times ?? 1));
  } else if (args[i] === '--key') {
    i++;
  } else if (args[i] === '--latency') {
    server.latency = Number(args[++i]);
  }
}
console.log(server.url);
process.stdin.resume();
process.stdin.on('end', async () => { await server.close(); process.exit(0); });
