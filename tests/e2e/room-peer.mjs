// One side of a room over WebRTC, for room-transport.test.mjs: a node process (a page's
// `selfId` is one a process) that joins a room through a relay, sends `hello` to every peer that
// joins and prints what it hears, one JSON line each, until it is stopped.
import WebSocket from 'ws';
import { joinRoom } from 'trystero/nostr';
import { RTCPeerConnection } from './webrtc-node.mjs';

globalThis.WebSocket = WebSocket;
const [relay, role, roomId] = process.argv.slice(2);
const started = Date.now();
// No STUN or TURN server and only the loopback address: the test's peers find each other on this
// machine alone (the public servers a published page would use are never asked), and a machine
// whose only network is loopback (CI's) still has an address to offer.
const room = joinRoom(
  { appId: 'agora-test', relayConfig: { urls: [relay] }, rtcPolyfill: RTCPeerConnection, rtcConfig: { iceServers: [], bindAddress: '127.0.0.1' } },
  roomId,
);
const hello = room.makeAction('hello');
hello.onMessage = (data) => console.log(JSON.stringify({ heard: data, ms: Date.now() - started }));
room.onPeerJoin = (peer) => hello.send({ from: role }, { target: peer });
