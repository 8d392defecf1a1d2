// Starts the comparison page (compare.html) without an inline script.
await (await import('../compare/agora-compare.js')).default();
