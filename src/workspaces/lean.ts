// What `skilldock policy check-write` (an agent's pre-tool hook, run on every write) needs, loadable
// without the workspaces service, the scanner or zod: the front doors' quick path into this domain.
export { checkWriteIn } from './check-write.js';
export { ConversationLog } from './conversations.js';
