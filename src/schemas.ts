import { ConversationIndexSchema, ConversationSchema, SettingsSchema } from './contract/index.js';
import { RegistrySchema } from './agents/registry-schema.js';
import { ConversationsFileSchema, RemovedLineSchema } from './workspaces/conversation-schemas.js';
import { provideSchema } from './store/lazy-schema.js';

// Every schema the engine reads its own files with, provided by name (src/store/lazy-schema.ts).
// The service imports this, so the app, `serve`, the CLI's full path and the tests validate with
// zod; only the CLI's lean commands run without it.
provideSchema('agent-registry', RegistrySchema);
provideSchema('settings', SettingsSchema);
provideSchema('conversations-file', ConversationsFileSchema);
provideSchema('conversation-index', ConversationIndexSchema);
provideSchema('conversation-removed', RemovedLineSchema);
provideSchema('conversation', ConversationSchema);
