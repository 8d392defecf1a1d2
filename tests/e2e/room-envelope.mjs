// The room's envelopes as src/room.rs writes them, for the node processes that play a phone or a
// stranger in a room (bench/room-phone.mjs, room-forger.mjs) and the tests that find a room.
import { createHash, createHmac } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** The room's name at the relays (`Secret::topic`). */
export const topicOf = (secret) => createHash('sha256').update(Buffer.concat([Buffer.from('agora-room:'), secret])).digest('hex').slice(0, 24);

/** The room's short code (`Secret::code`). */
export const codeOf = (secret) => [...createHash('sha256').update(secret).digest().subarray(0, 6)].map((b) => ALPHABET[b % ALPHABET.length]).join('');

/** The secret a join link's fragment carries. */
export const secretOf = (link) => Buffer.from(new URLSearchParams(new URL(link).hash.slice(1)).get('k'), 'base64url');

/** `body` from `from`, numbered `seq`, signed with `key` for the room `code` (`Secret::seal`), as JSON. */
export function seal(key, code, from, seq, body) {
  const mac = createHmac('sha256', key);
  const n = Buffer.alloc(8);
  n.writeBigUInt64BE(BigInt(seq));
  for (const part of [Buffer.from(code), Buffer.from(from), n, Buffer.from(body)]) {
    const len = Buffer.alloc(8);
    len.writeBigUInt64BE(BigInt(part.length));
    mac.update(len);
    mac.update(part);
  }
  return JSON.stringify({ room: code, from, seq, body, mac: mac.digest('hex') });
}
