// Limits every MCP transport shares: a skill request is tiny, anything near these is hostile.

/** Largest JSON-RPC message accepted: an HTTP body, or one line on standard input. */
export const MAX_MESSAGE_BYTES = 1 << 20;
