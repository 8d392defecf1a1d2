// The in-tab model's module, fetched only when a scenario runs on it: what the app calls. The
// engine and its queue are in engine.js, the kept model files in store.js, the settings panel in
// panel.js.
export { complete, environment, load, unload } from './engine.js';
export { cached, check, download, remove, stored } from './store.js';
export { settings } from './panel.js';
