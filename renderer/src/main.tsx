// The adapter must load before any Arco component: Message/Notification/Modal.confirm render with
// React 19's createRoot through it.
import '@arco-design/web-react/es/_util/react-19-adapter';
import '@arco-design/web-react/dist/css/arco.css';
// Shipped Latin UI face: Latin text and punctuation never fall back to a CJK font (full-width quotes).
import '@fontsource-variable/inter';
import './styles.css';
// After Arco's sheet: it raises Arco's palette to WCAG AA contrast in both themes.
import './contrast.css';
import { createRoot } from 'react-dom/client';
import { createClient } from './client';
import { setClient } from './client-port';
import { createI18n, matchLanguage } from './i18n';
import { App } from './app';

async function start() {
  setClient(createClient());
  // Until settings arrive, speak the OS language rather than flashing English.
  const i18n = await createI18n(matchLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]));
  // bench/ui.mjs: every script fetched by now is one the first paint waited for (issue 16).
  performance.mark('skilldock:first-render');
  createRoot(document.getElementById('root')!).render(<App i18n={i18n} />);
}

void start();
