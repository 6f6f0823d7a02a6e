/// <reference types="vite/client" />

/** The console's own version (package.json), set by vite.config.ts. */
declare const __FRONTEND_VERSION__: string;
