// The recorder lives in the engine (src/verify/recorder.ts): `skilldock verify` and these tests share it.
export * from '../../src/verify/recorder.js';
