// A stranger in a class's room, for room.test.mjs: a node process that found the room's meeting
// name (the test hands it over) but not its secret. It joins through the relay and sends every peer
// it meets a vote signed with a secret of its own, then prints "sent" once.
import WebSocket from 'ws';
import { joinRoom, selfId } from 'trystero/nostr';
import { seal } from './room-envelope.mjs';
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
  // Signed as the room signs, but with the wrong key.
  const forged = seal(Buffer.alloc(16, 9), code, selfId, 1, JSON.stringify({ kind: 'vote', agent: 'Donald Trump' }));
  say.send(forged, { target: peer }).then(() => {
    if (!printed) console.log('sent');
    printed = true;
  });
};
