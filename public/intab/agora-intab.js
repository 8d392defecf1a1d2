// The in-tab model's module, fetched only when a scenario runs on it: what the app calls (its
// settings panel too, src/app/intab_panel.rs). The engine and its queue are in engine.js, the
// kept model files in store.js.
export { complete, environment, load, unload } from './engine.js';
export { cached, check, download, remove, stored } from './store.js';
