import { z } from 'zod';

// Owned by the library work. Add schemas here and list methods in `libraryMethods`
// (each: { input: zod schema, output: zod schema }) and event schemas in `libraryEvents`.

export const libraryMethods = {} as const;

export const libraryEvents = [] as const;

void z;
