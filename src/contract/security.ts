import { z } from 'zod';

// Owned by the security work. Add schemas here and list methods in `securityMethods`
// (each: { input: zod schema, output: zod schema }) and event schemas in `securityEvents`.

export const securityMethods = {} as const;

export const securityEvents = [] as const;

void z;
