// One headless phone in a class's room, for room-phones.mjs: a node process that speaks the room's
// protocol (src/room.rs) over trystero and node-datachannel, as phone.html does in a browser. It
// joins under a name from the join link, says it is still there every 5 s, and prints one JSON line
// per thing it hears: {"welcomed": t}, {"events": from, "lines": n, "at": t} (t: Date.now()).
//
//   node tests/bench/room-phone.mjs '<join link>' <name>
import WebSocket from 'ws';
import { joinRoom, selfId } from 'trystero/nostr';
import { codeOf, seal as sealWith, secretOf, topicOf } from '../e2e/room-envelope.mjs';
import { RTCPeerConnection } from '../e2e/webrtc-node.mjs';

globalThis.WebSocket = WebSocket;
const [link, name] = process.argv.slice(2);
const secret = secretOf(link);
const relay = new URLSearchParams(new URL(link).hash.slice(1)).get('relay');
const topic = topicOf(secret);
const code = codeOf(secret);
let seq = 0;
const seal = (body) => sealWith(secret, code, selfId, ++seq, body);

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
