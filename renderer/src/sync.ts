import { useEffect } from 'react';
import { Notification } from '@arco-design/web-react';
import type { i18n as I18n } from 'i18next';
import type { Settings, SkillDockEvent } from '../../src/contract/index';
import { client } from './client-port';
import { matchLanguage, switchLanguage } from './i18n';
import { useAgents } from './stores/agents-store';
import { useAssistants } from './stores/assistants-store';
import { useCatalog } from './stores/catalog-store';
import { useDeploy } from './stores/deploy-store';
import { useDoctor } from './stores/doctor-store';
import { useImport } from './stores/import-store';
import { useLaunch } from './stores/launch-store';
import { useLibrary } from './stores/library-store';
import { useSettings } from './stores/settings-store';
import { useDiscover } from './stores/discover-store';
import { useSources } from './stores/sources-store';

/** Routes pushed engine events into the stores (which are caches of engine state, nothing more). */
export function handleEvent(event: SkillDockEvent, i18n: I18n): void {
  switch (event.type) {
    case 'catalog-changed':
      // A refused skill's scripts may have changed back to what was approved.
      void useLaunch.getState().recheckRefusal();
      useAgents.getState().invalidateViews();
      void useCatalog.getState().load();
      // Attached skills may have vanished or changed: refresh the open assistant's flags.
      void useAssistants.getState().refreshView();
      break;
    case 'library-changed':
      void useCatalog.getState().load();
      useLibrary.getState().libraryChanged();
      useSources.getState().libraryChanged();
      useDiscover.getState().libraryChanged();
      useDeploy.getState().changed();
      break;
    case 'deploy-changed':
      useDeploy.getState().changed();
      break;
    case 'import-progress':
      useImport.getState().onProgress(event);
      break;
    case 'assistants-changed':
      void useAssistants.getState().load();
      break;
    case 'settings-changed': {
      const before = useSettings.getState().settings;
      useSettings.getState().receive(event.settings);
      // The starter assistants are named and worded in the language of the settings.
      if (before && before.language !== event.settings.language) void useAssistants.getState().load();
      // Custom agents are part of the registry (added or removed by the CLI, or another window).
      if (before && JSON.stringify(before.customAgents) !== JSON.stringify(event.settings.customAgents)) {
        void useAgents.getState().loadRegistry();
      }
      break;
    }
    case 'conversation-launched':
    case 'workspaces-cleaned':
      void useLaunch.getState().loadWorkspaces();
      break;
    case 'approval-changed':
      useCatalog.getState().bumpTrust();
      void useAssistants.getState().refreshView();
      void useLaunch.getState().recheckRefusal();
      break;
    case 'operation-rolled-back':
      useDoctor.getState().rolledBack({ op: event.op, undone: event.undone });
      break;
    case 'store-corrupt':
      Notification.warning({
        title: i18n.t('errors.storeCorruptTitle'),
        content: i18n.t(event.recoveredFrom === 'backup' ? 'errors.storeCorrupt' : 'errors.storeCorruptDefaults', {
          file: event.file,
          movedTo: event.movedTo,
          reason: i18n.t(`errors.corruptReason.${event.reasonCode}`),
        }),
        duration: 0,
      });
      break;
    default:
      break;
  }
}

/**
 * Every cache read again from the engine: what each `*-changed` event would re-read, for when
 * events may have been lost (the browser's event stream connecting, or reconnecting after a drop).
 * Stores re-read only what they show (the library's and sources' watched lists, the open assistant).
 */
export function reloadAll(): void {
  void useSettings.getState().load();
  void useAgents.getState().loadRegistry();
  useAgents.getState().invalidateViews();
  void useCatalog.getState().load();
  useCatalog.getState().bumpTrust();
  useDeploy.getState().changed();
  void useAssistants.getState().load();
  useLibrary.getState().libraryChanged();
  useSources.getState().libraryChanged();
  void useLaunch.getState().loadWorkspaces();
}

/**
 * Subscribes to events, loads every cache, and loads them again each time the event stream
 * (re)opens, so a change made before the stream was connected still reaches the window.
 */
export function startEngineSync(i18n: I18n): () => void {
  const off = client().onEvent((e) => handleEvent(e, i18n), reloadAll);
  void useSettings.getState().load();
  void useCatalog.getState().load();
  void useAssistants.getState().load();
  void useAgents.getState().loadRegistry();
  return off;
}

/** The engine sync for the life of the app. */
export function useEngineSync(i18n: I18n): void {
  useEffect(() => startEngineSync(i18n), [i18n]);
}

/** First run (language null): the OS language, saved so the CLI and the other door agree. */
export function useLanguage(i18n: I18n, settings: Settings | null): void {
  useEffect(() => {
    if (!settings) return;
    if (settings.language === null) {
      const tags = typeof navigator !== 'undefined' ? (navigator.languages?.length ? navigator.languages : [navigator.language]) : [];
      void useSettings.getState().update({ language: matchLanguage(tags) });
      return;
    }
    const language = settings.language;
    // The language's words are fetched first (issue 16); the page says it in the new language at once after.
    switchLanguage(i18n, language).then(
      () => {
        if (i18n.language === language) document.documentElement.lang = language;
      },
      (err: unknown) =>
        Notification.error({
          title: i18n.t('errors.languageLoadTitle'),
          content: i18n.t('errors.languageLoad', { reason: err instanceof Error ? err.message : String(err) }),
          duration: 0,
        }),
    );
  }, [i18n, settings?.language]); // eslint-disable-line react-hooks/exhaustive-deps
}

/** Arco's dark theme is an attribute on body; `system` follows the OS and its changes. */
export function useTheme(theme: Settings['theme'] | undefined): void {
  useEffect(() => {
    const apply = (dark: boolean) => {
      if (dark) document.body.setAttribute('arco-theme', 'dark');
      else document.body.removeAttribute('arco-theme');
    };
    if (theme !== 'system') {
      apply(theme === 'dark');
      return;
    }
    const mq = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
    apply(Boolean(mq?.matches));
    if (!mq) return;
    const onChange = (e: MediaQueryListEvent) => apply(e.matches);
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, [theme]);
}
