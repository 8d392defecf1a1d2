// A stranger in a class's room, for room.test.mjs: a node process that found the room's meeting
// name (the test hands it over) but not its secret. It joins through the relay and sends every peer
// it meets a vote signed with a secret of its own, then prints "sent" once.
import WebSocket from 'ws';
import { createHmac } from 'node:crypto';
import { joinRoom, selfId } from 'trystero/nostr';
import { RTCPeerConnection } from './webrtc-node.mjs';

globalThis.WebSocket = WebSocket;
const [relay, topic, code] = process.argv.slice(2);
const room = joinRoom(
  { appId: 'agora-class-room', relayConfig: { urls: [relay] }, rtcPolyfill: RTCPeerConnection, rtcConfig: { iceServers: [], bindAddress: '127.0.0.1' } },
  topic,
);
const say = room.makeAction('say');
let printed = false;
room.onPeerJoin = (peer) => {
  // Signed as the room signs (src/room.rs), but with the wrong key.
  const body = JSON.stringify({ kind: 'vote', agent: 'Donald Trump' });
  const mac = createHmac('sha256', Buffer.alloc(16, 9));
  for (const part of [Buffer.from(code), Buffer.from(selfId), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(1n); return b; })(), Buffer.from(body)]) {
    const len = Buffer.alloc(8);
    len.writeBigUInt64BE(BigInt(part.length));
    mac.update(len);
    mac.update(part);
  }
  const envelope = { room: code, from: selfId, seq: 1, body, mac: mac.digest('hex') };
  say.send(JSON.stringify(envelope), { target: peer }).then(() => {
    if (!printed) console.log('sent');
    printed = true;
  });
};
