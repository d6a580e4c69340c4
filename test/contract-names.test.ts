import { describe, expect, it } from 'vitest';
import { EventSchema, methodNames } from '../src/contract/index.js';
import { EVENT_TYPES, METHOD_NAMES, isEngineEvent } from '../src/contract/names.js';

describe('plain contract names (for clients without zod)', () => {
  it('are exactly the contract methods', () => {
    expect([...METHOD_NAMES].sort()).toEqual([...methodNames].sort());
  });

  it('are exactly the event types of EventSchema', () => {
    const types = EventSchema.options.map((o) => [...o.shape.type.values][0]);
    expect([...EVENT_TYPES].sort()).toEqual([...types].sort());
  });

  it('tell an engine event by its type', () => {
    expect(isEngineEvent({ type: 'catalog-changed', added: [], changed: [], removed: [], generation: 1 })).toBe(true);
    expect(isEngineEvent({ type: 'nope' })).toBe(false);
    expect(isEngineEvent(null)).toBe(false);
    expect(isEngineEvent('catalog-changed')).toBe(false);
  });
});
