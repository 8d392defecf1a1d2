// A class's transport (issue 40): two peers find each other through `agora relay` on 127.0.0.1
// (the part of Nostr that signalling uses) and talk over a WebRTC data channel, with no public
// relay, STUN or TURN server asked. The peers are node processes (node-datachannel's WebRTC, the
// headless client the benchmark of 30 phones uses); the page's side comes with the room.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { root, startRelay } from './helpers.mjs';

/** A process, and the lines it prints as they come. */
function start(cmd, args) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = [];
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    waiting.splice(0).forEach((w) => w());
  });
  const next = (ms) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nothing from ${args.join(' ')} within ${ms} ms`)), ms);
    const look = () => {
      if (lines.length) { clearTimeout(timer); resolve(lines.shift()); } else waiting.push(look);
    };
    look();
  });
  return { child, next };
}

test('a teacher and a phone meet through agora relay on 127.0.0.1 and talk over a data channel', async () => {
  const relay = await startRelay();
  const { url } = relay;
  const peers = [];
  try {
    assert.match(url, /^ws:\/\/127\.0\.0\.1:\d+$/);
    for (const attempt of [1, 2, 3]) {
      const room = `class-${process.pid}-${attempt}`;
      const teacher = start('node', [join(root, 'tests', 'e2e', 'room-peer.mjs'), url, 'teacher', room]);
      const phone = start('node', [join(root, 'tests', 'e2e', 'room-peer.mjs'), url, 'phone', room]);
      peers.push(teacher, phone);
      const [t, p] = await Promise.all([teacher.next(15000), phone.next(15000)]);
      assert.deepEqual(JSON.parse(t).heard, { from: 'phone' });
      assert.deepEqual(JSON.parse(p).heard, { from: 'teacher' });
      console.log(`# attempt ${attempt}: the phone heard the teacher ${JSON.parse(p).ms} ms after joining`);
      teacher.child.kill();
      phone.child.kill();
    }
  } finally {
    for (const p of peers) p.child.kill();
    relay.close();
  }
});
