// The CLI's public surface: the Electron binary runs it when started as `skilldock` (main/cli-mode.ts).
export { runCli } from './main.js';
