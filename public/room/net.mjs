// The room's transport (issue 40): WebRTC data channels between the teacher's page and each
// phone, found through Nostr relays by trystero. Bundled with trystero into room/net.js at build
// time (publish/room.mjs); the tools module (src/app/room_live.rs) imports it the first time a
// room opens or a phone joins, never on the first page.
import { joinRoom, selfId } from 'trystero/nostr';

// Joins the room `options.topic` through `options.relays` (none: trystero's public relays), with
// `options.ice` as the STUN/TURN servers (null: trystero's public ones; [] none, for a network
// of its own). What arrives is handed on as text.
export function join(options, onJoin, onLeave, onMessage) {
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
  const room = joinRoom(config, options.topic);
  const say = room.makeAction('say');
  say.onMessage = (data, context) => onMessage(context.peerId, String(data));
  room.onPeerJoin = (peer) => onJoin(peer);
  room.onPeerLeave = (peer) => onLeave(peer);
  return {
    id: selfId,
    send: (text, peer) => say.send(text, peer ? { target: peer } : undefined).catch(() => {}),
    leave: () => room.leave(),
  };
}
