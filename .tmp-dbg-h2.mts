import { createService } from './src/service.ts';
const s = createService();
try { const c = await s.api.listCatalog({ roots: [process.argv[2]] }); console.log(c.entries.length); } catch (e) { console.error(e); }
await s.close();
