// One headless phone in a class's room, for room-phones.mjs: a node process that speaks the room's
// protocol (src/room.rs) over trystero and node-datachannel, as phone.html does in a browser. It
// joins under a name from the join link, says it is still there every 5 s, and prints one JSON line
// per thing it hears: {"welcomed": t}, {"events": from, "lines": n, "at": t} (t: Date.now()).
//
//   node tests/bench/room-phone.mjs '<join link>' <name>
import WebSocket from 'ws';
import { createHash, createHmac } from 'node:crypto';
import { joinRoom, selfId } from 'trystero/nostr';
import { RTCPeerConnection } from '../e2e/webrtc-node.mjs';

globalThis.WebSocket = WebSocket;
const [link, name] = process.argv.slice(2);
const fragment = new URLSearchParams(new URL(link).hash.slice(1));
const secret = Buffer.from(fragment.get('k'), 'base64url');
const relay = fragment.get('relay');
// The room's name at the relays and its short code, as `Secret::topic` and `Secret::code` make them.
const topic = createHash('sha256').update(Buffer.concat([Buffer.from('agora-room:'), secret])).digest('hex').slice(0, 24);
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const code = [...createHash('sha256').update(secret).digest().subarray(0, 6)].map((b) => ALPHABET[b % ALPHABET.length]).join('');

let seq = 0;
function seal(body) {
  seq += 1;
  const mac = createHmac('sha256', secret);
  const n = Buffer.alloc(8);
  n.writeBigUInt64BE(BigInt(seq));
  for (const part of [Buffer.from(code), Buffer.from(selfId), n, Buffer.from(body)]) {
    const len = Buffer.alloc(8);
    len.writeBigUInt64BE(BigInt(part.length));
    mac.update(len);
    mac.update(part);
  }
  return JSON.stringify({ room: code, from: selfId, seq, body, mac: mac.digest('hex') });
}

// No STUN server: the teacher's page reaches this phone's 127.0.0.1 through its TURN relay.
const room = joinRoom(
  { appId: 'agora-class-room', relayConfig: { urls: [relay] }, rtcPolyfill: RTCPeerConnection, rtcConfig: { iceServers: [], bindAddress: '127.0.0.1' } },
  topic,
);
const say = room.makeAction('say');
let welcomed = false;
room.onPeerJoin = (peer) => {
  if (!welcomed) say.send(seal(JSON.stringify({ kind: 'join', name, token: null })), { target: peer });
};
say.onMessage = (data) => {
  const at = Date.now();
  let body;
  try {
    body = JSON.parse(JSON.parse(String(data)).body);
  } catch {
    return;
  }
  if (body.kind === 'welcome' && !welcomed) {
    welcomed = true;
    console.log(JSON.stringify({ welcomed: at }));
  } else if (body.kind === 'events') {
    console.log(JSON.stringify({ events: body.from, lines: body.lines ? body.lines.split('\n').length : 0, at }));
  }
};
setInterval(() => welcomed && say.send(seal(JSON.stringify({ kind: 'here' }))), 5000);
