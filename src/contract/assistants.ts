import { z } from 'zod';

// Owned by the assistants work. Add schemas here and list methods in `assistantsMethods`
// (each: { input: zod schema, output: zod schema }) and event schemas in `assistantsEvents`.

export const assistantsMethods = {} as const;

export const assistantsEvents = [] as const;

void z;
