// WebRTC for node processes that stand in for a page (room-peer.mjs, the 30-phone benchmark):
// node-datachannel's RTCPeerConnection, with two things a browser does that it does not, both of
// which trystero relies on when an answer and a candidate arrive together.
// - A description not yet set reads as null (the polyfill hands back an empty one), so trystero
//   holds an early candidate until the description comes instead of adding it and failing.
// - setLocalDescription, setRemoteDescription and addIceCandidate run one after another in the
//   order they were called (the spec's operations chain).
import { RTCPeerConnection as Polyfill } from 'node-datachannel/polyfill';

export class RTCPeerConnection extends Polyfill {
  #chain = Promise.resolve();

  #queue(run) {
    const result = this.#chain.then(run);
    this.#chain = result.catch(() => {});
    return result;
  }

  get remoteDescription() {
    const set = super.remoteDescription;
    return set?.sdp ? set : null;
  }

  get localDescription() {
    const set = super.localDescription;
    return set?.sdp ? set : null;
  }

  setLocalDescription(...args) { return this.#queue(() => super.setLocalDescription(...args)); }
  setRemoteDescription(...args) { return this.#queue(() => super.setRemoteDescription(...args)); }
  addIceCandidate(...args) { return this.#queue(() => super.addIceCandidate(...args)); }
}
