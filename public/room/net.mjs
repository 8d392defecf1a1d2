// The room's transport (issue 40): WebRTC data channels between the teacher's page and each
// phone, found through Nostr relays by trystero. Bundled with trystero into room/net.js at build
// time (publish/room.mjs); the tools module (src/app/room_live.rs) imports it the first time a
// room opens or a phone joins, never on the first page.
import {
  getRelaySockets, joinRoom, pauseRelayReconnection, resumeRelayReconnection, selfId,
} from 'trystero/nostr';

// How long the room may go without an open relay before it says so, and how often the relays
// that closed are tried again (trystero alone backs off and, after about a minute, stops).
const PATIENCE_MS = 7000;
const RETRY_MS = 4000;

// What the transport did, newest last (at most 400 entries), for a test or a person in the
// console to read when a room does not meet: globalThis.agoraRoomLog.
const trail = (globalThis.agoraRoomLog ??= []);
function note(...what) {
  trail.push(`${Math.round(performance.now())} ${what.join(' ')}`);
  if (trail.length > 400) trail.shift();
}

// Joins the room `options.topic` through `options.relays` (none: trystero's public relays), with
// `options.ice` as the STUN/TURN servers (null: trystero's public ones; [] none, for a network
// of its own). What arrives is handed on as text. `onReach(false)` says that no relay has been open
// for a while (a network that blocks them), `onReach(true)` that one is open again; meanwhile the
// relays are tried again every few seconds, for as long as the room is open.
export function join(options, onJoin, onLeave, onMessage, onReach) {
  const config = { appId: 'agora-class-room' };
  if (options.relays.length) config.relayConfig = { urls: options.relays };
  if (options.ice) {
    // `turn:user:password@host:port` carries its credentials; `only` sends everything through
    // the TURN servers (never directly between devices).
    const servers = options.ice.filter((s) => s !== 'only').map((s) => {
      const m = /^(turns?):([^:@/]+):([^@/]+)@(.+)$/.exec(s);
      return m ? { urls: `${m[1]}:${m[4]}`, username: m[2], credential: m[3] } : { urls: s };
    });
    config.rtcConfig = { iceServers: servers, iceTransportPolicy: options.ice.includes('only') ? 'relay' : 'all' };
  }
  note('join', options.topic.slice(0, 8), 'as', selfId, 'via', options.relays.join(',') || 'public relays');
  const room = joinRoom(config, options.topic);
  const say = room.makeAction('say');
  say.onMessage = (data, context) => {
    note('heard', String(data).length, 'from', context.peerId);
    onMessage(context.peerId, String(data));
  };
  room.onPeerJoin = (peer) => {
    note('peer joined', peer);
    onJoin(peer);
  };
  room.onPeerLeave = (peer) => {
    note('peer left', peer);
    onLeave(peer);
  };
  const stop = watch(options.relays, onReach);
  return {
    id: selfId,
    send: (text, peer) => {
      note('send', text.length, 'to', peer || 'all');
      return say.send(text, peer ? { target: peer } : undefined).catch((e) => note('not sent:', e));
    },
    leave: () => {
      note('leave', options.topic.slice(0, 8));
      stop();
      return Promise.resolve(room.leave()).then(() => note('left', options.topic.slice(0, 8)));
    },
  };
}

// Watches the room's relays (none named: the public ones trystero picked) once a second.
function watch(relays, onReach) {
  let openAt = Date.now();
  let reached = true;
  let retryAt = Date.now() + RETRY_MS;
  const opening = new WeakMap();
  let lastStates = '';
  // A relay that closes waits for the next retry below instead of backing off to giving up.
  pauseRelayReconnection();
  const timer = setInterval(() => {
    const now = Date.now();
    const sockets = Object.entries(getRelaySockets())
      .filter(([url, socket]) => socket && (!relays.length || relays.includes(url)))
      .map(([, socket]) => socket);
    if (sockets.some((s) => s.readyState === WebSocket.OPEN)) openAt = now;
    for (const socket of sockets) {
      // A relay that never answers leaves its socket opening for minutes: closed, it is tried again.
      if (socket.readyState !== WebSocket.CONNECTING) continue;
      if (!opening.has(socket)) opening.set(socket, now);
      else if (now - opening.get(socket) > PATIENCE_MS) socket.close();
    }
    const ok = now - openAt < PATIENCE_MS;
    const states = sockets.map((s) => s.readyState).join('');
    if (states !== lastStates) note('relays', states || 'none', '(0 opening, 1 open, 3 closed)');
    lastStates = states;
    if (ok !== reached) {
      note(ok ? 'a relay is open again' : 'no relay open');
      reached = ok;
      onReach(ok);
    }
    if (now >= retryAt) {
      retryAt = now + RETRY_MS;
      resumeRelayReconnection();
      // Paused again once the waiting sockets have been started (the lock clears asynchronously).
      setTimeout(pauseRelayReconnection, 0);
    }
  }, 1000);
  return () => {
    clearInterval(timer);
    resumeRelayReconnection();
  };
}
