import fs from 'node:fs';

// The few asynchronous reads of the catalog's start, on fs's callback API. fs.promises answers the
// same, but loading it brings node:stream and node:readline along: a few ms of a `list --json` that
// reads nothing as a stream.

const settle =
  <T>(resolve: (v: T) => void, reject: (e: Error) => void) =>
  (err: Error | null, value: T) =>
    err ? reject(err) : resolve(value);

export const statAsync = (p: string): Promise<fs.Stats> => new Promise((res, rej) => fs.stat(p, settle(res, rej)));

/** The native realpath, as fs.promises.realpath. */
export const realpathAsync = (p: string): Promise<string> => new Promise((res, rej) => fs.realpath.native(p, settle(res, rej)));

export const readdirEntries = (p: string): Promise<fs.Dirent[]> =>
  new Promise((res, rej) => fs.readdir(p, { withFileTypes: true }, settle(res, rej)));
