import { z } from 'zod';

// Owned by the launch work. Add schemas here and list methods in `launchMethods`
// (each: { input: zod schema, output: zod schema }) and event schemas in `launchEvents`.

export const launchMethods = {} as const;

export const launchEvents = [] as const;

void z;
