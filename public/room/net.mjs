// The room's transport (issue 40): WebRTC data channels between the teacher's page and each
// phone, found through Nostr relays by trystero. Bundled with trystero into room/net.js at build
// time (publish/room.mjs); the tools module (src/app/room_live.rs) imports it the first time a
// room opens or a phone joins, never on the first page.
import * as trystero from 'trystero/nostr';

// This module's own trystero (bundled into it), for a fresh copy of the module to hand over: see
// `rejoin` below.
export const {
  getRelaySockets, joinRoom, pauseRelayReconnection, resumeRelayReconnection, selfId,
} = trystero;

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
// for a while (a network that blocks them), `onReach(true)` that one is open (first, or again); meanwhile the
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
  // What the page was last told of the relays: a rejoin's watch goes on from it.
  let reached = true;
  const reach = (ok) => {
    reached = ok;
    onReach(ok);
  };
  // The trystero in use: this module's, or a fresh copy's after a rejoin.
  let t = trystero;
  let copies = 0;
  let room;
  let say;
  let stop;
  const enter = () => {
    note('join', options.topic.slice(0, 8), 'as', t.selfId, 'via', options.relays.join(',') || 'public relays');
    room = t.joinRoom(config, options.topic);
    say = room.makeAction('say');
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
    stop = watch(t, options.relays, reach, reached);
  };
  enter();
  return {
    id: t.selfId,
    send: (text, peer) => {
      note('send', text.length, 'to', peer || 'all');
      return say.send(text, peer ? { target: peer } : undefined).catch((e) => note('not sent:', e));
    },
    // The room joined anew under a new id. Now and then two pages end up with a connection only
    // one of them counts (the other never hears of the peer), and a page that has once counted a
    // peer id does not take a new connection from it: a fresh copy of this module brings a fresh
    // trystero, with a new id and relays of its own. `onId(id)` hears the new id before anyone
    // is met under it.
    rejoin: async (onId) => {
      note('rejoin', options.topic.slice(0, 8));
      stop(false);
      await Promise.resolve(room.leave());
      for (const socket of Object.values(t.getRelaySockets())) socket?.close();
      copies += 1;
      t = await import(`${import.meta.url.split('?')[0]}?copy=${copies}`);
      onId(t.selfId);
      enter();
    },
    leave: () => {
      note('leave', options.topic.slice(0, 8));
      stop(true);
      return Promise.resolve(room.leave()).then(() => note('left', options.topic.slice(0, 8)));
    },
  };
}

// Watches the room's relays (none named: the public ones trystero `t` picked) once a second,
// from `reached`, what the page was last told of them; `stop(resume)` ends it, and with `resume`
// lets trystero reconnect its relays as it does alone.
function watch(t, relays, onReach, reached) {
  const { getRelaySockets, pauseRelayReconnection, resumeRelayReconnection } = t;
  let openAt = reached ? Date.now() : 0;
  let retryAt = Date.now() + RETRY_MS;
  const opening = new WeakMap();
  let lastStates = '';
  // Whether the page has heard that a relay opened since this watch began (a room's panel says
  // it is still connecting until then).
  let told = false;
  // A relay that closes waits for the next retry below instead of backing off to giving up.
  pauseRelayReconnection();
  const timer = setInterval(() => {
    const now = Date.now();
    const sockets = Object.entries(getRelaySockets())
      .filter(([url, socket]) => socket && (!relays.length || relays.includes(url)))
      .map(([, socket]) => socket);
    const open = sockets.some((s) => s.readyState === WebSocket.OPEN);
    if (open) openAt = now;
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
    if (ok !== reached || (open && !told)) {
      note(ok ? 'a relay is open' : 'no relay open');
      reached = ok;
      told ||= open;
      onReach(ok);
    }
    if (now >= retryAt) {
      retryAt = now + RETRY_MS;
      resumeRelayReconnection();
      // Paused again once the waiting sockets have been started (the lock clears asynchronously).
      setTimeout(pauseRelayReconnection, 0);
    }
  }, 1000);
  return (resume) => {
    clearInterval(timer);
    if (resume) resumeRelayReconnection();
  };
}
