import enUS from '@arco-design/web-react/es/locale/en-US';
import zhCN from '@arco-design/web-react/es/locale/zh-CN';
import zhHK from '@arco-design/web-react/es/locale/zh-HK';
import jaJP from '@arco-design/web-react/es/locale/ja-JP';
import type { Language } from '../../../src/contract/index';

// Arco ships no zh-TW; zh-HK is the Traditional Chinese one.
export const ARCO_LOCALES = { en: enUS, 'zh-CN': zhCN, 'zh-TW': zhHK, ja: jaJP } as const satisfies Record<Language, unknown>;
