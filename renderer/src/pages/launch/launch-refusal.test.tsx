// @vitest-environment happy-dom
import '../../test/setup';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { LANGUAGES, createI18n } from '../../i18n';
import { useLaunch } from '../../stores/launch-store';
import { useCatalog } from '../../stores/catalog-store';
import { TID, rowId } from '../../testids';
import { startEngine, type TestEngine } from '../../test/engine';
import { renderApp } from '../../test/render-app';
import { handleEvent } from '../../sync';

// The launch page when the engine refuses a launch because a skill's scripts changed since the
// user approved them: the skill is named, and the user can launch without it or with it blocked.

let engine: TestEngine;
let assistantId: string;
beforeAll(async () => {
  engine = await startEngine();
  await engine.client.api.approveSkill({ name: 'pdf' });
  const a = await engine.client.api.createAssistant({ name: 'Reader', agent: 'claude', skills: ['pdf', 'code'] });
  assistantId = a.id;
  fs.writeFileSync(path.join(engine.home, 'library', 'pdf', 'scripts', 'extract.sh'), 'echo extract more\n');
}, 60_000);
afterEach(() => cleanup());
afterAll(async () => {
  await engine?.close();
});

describe('launch page: scripts changed since approval', () => {
  it('names the skill and launches without it on request', async () => {
    await renderApp(engine, 'en', 'launch');
    await act(async () => {
      await useLaunch.getState().launch(assistantId);
    });
    const panel = await screen.findByTestId(TID.launchRefused);
    expect(panel.textContent).toContain('pdf (changed since approval)');
    expect(useLaunch.getState().result).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByTestId(TID.launchOmit));
    });
    await screen.findByTestId(TID.launchResult);
    const result = useLaunch.getState().result!;
    expect(result.links.map((l) => l.skill)).toEqual(['code']);
    expect(result.problems.map((p) => [p.skill, p.code])).toEqual([['pdf', 'script-omitted']]);
    expect(screen.queryByTestId(TID.launchRefused)).toBeNull();
  }, 60_000);

  it('or links it with its scripts blocked', async () => {
    await renderApp(engine, 'en', 'launch');
    await act(async () => {
      await useLaunch.getState().launch(assistantId);
    });
    await act(async () => {
      fireEvent.click(await screen.findByTestId(TID.launchSkip));
    });
    await waitFor(() => expect(useLaunch.getState().result).not.toBeNull());
    const result = useLaunch.getState().result!;
    expect(result.links.map((l) => l.skill).sort()).toEqual(['code', 'pdf']);
    expect(result.problems.map((p) => [p.skill, p.code])).toEqual([['pdf', 'script-blocked']]);
  }, 60_000);

  it('opens the refused skill on its Security tab, where it can be approved', async () => {
    await renderApp(engine, 'en', 'launch');
    await act(async () => {
      await useLaunch.getState().launch(assistantId);
    });
    const review = await screen.findByTestId(rowId(TID.launchReviewSkill, 'pdf'));
    expect(review.textContent).toBe('Review and approve “pdf”');
    await waitFor(() => expect(useCatalog.getState().catalog).not.toBeNull());
    await waitFor(() => expect((review as HTMLButtonElement).disabled).toBe(false));
    await act(async () => {
      fireEvent.click(review);
    });
    expect(useCatalog.getState().openId).toBe('library/pdf');
    expect(useCatalog.getState().openTab).toBe('security');
    await act(async () => {
      useCatalog.getState().open(null);
    });
  }, 60_000);

  // Issue 23 item 6: the banner stayed after the skill was approved, even across pages.
  it('goes away once the refused skill is approved elsewhere (here: by another door of the engine)', async () => {
    await renderApp(engine, 'en', 'launch');
    const i18n = await createI18n('en');
    await act(async () => {
      await useLaunch.getState().launch(assistantId);
    });
    await screen.findByTestId(TID.launchRefused);
    const approved = await engine.client.api.approveSkill({ name: 'pdf' });
    // The event the engine pushes to every window (component tests have no EventSource: route it as the app does).
    await act(async () => {
      handleEvent({ type: 'approval-changed', name: 'pdf', action: 'approved', digest: approved.digest }, i18n);
    });
    await waitFor(() => expect(screen.queryByTestId(TID.launchRefused)).toBeNull(), { timeout: 10_000 });
    expect(useLaunch.getState().refusal).toBeNull();
    // The approval stands for the rest of this file: change the script again, and wait until the engine sees it.
    fs.writeFileSync(path.join(engine.home, 'library', 'pdf', 'scripts', 'extract.sh'), 'echo extract again\n');
    await waitFor(async () => expect((await engine.client.api.getSkillTrust({ name: 'pdf' })).status).toBe('changed'), {
      timeout: 10_000,
    });
  }, 60_000);

  for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
    it(`says it in ${lang} with every string resolved`, async () => {
      await renderApp(engine, lang, 'launch');
      await act(async () => {
        await useLaunch.getState().launch(assistantId);
      });
      const text = (await screen.findByTestId(TID.launchRefused)).textContent ?? '';
      expect(text).toContain('pdf (');
      expect(text).not.toContain('{{');
      expect(text).not.toMatch(/launch\.(refused|launchWithout|launchNoScripts)/);
      expect(text).not.toContain('changed since approval');
    }, 60_000);
  }
});
