// What Trunk runs after every build on its staging folder (Trunk.toml), one step after another:
// Trunk starts a stage's hooks all at once, and the service worker's list must see the final
// files. The page's wasm split at its `#[lazy]` functions (publish/split.mjs), the scripts minified (publish/minify.mjs), the room's transport bundled
// (publish/room.mjs), the page's static shell filled in from the presets (publish/shell.mjs), the
// user guide built into guide/ (publish/guide.mjs), then the service worker written with every file's digest (publish/precache.mjs). By hand:
// `node publish/after-build.mjs dist`.
await import('./split.mjs');
await import('./minify.mjs');
await import('./room.mjs');
await import('./shell.mjs');
await import('./guide.mjs');
await import('./precache.mjs');
