import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// Relative base: the same build is loaded from file:// by Electron and from the loopback server.
export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  build: {
    outDir: path.resolve(here, '../dist/renderer'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
  },
});
