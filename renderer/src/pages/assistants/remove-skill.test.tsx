// @vitest-environment happy-dom
import '../../test/setup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Language } from '../../../../src/contract/index';
import { LANGUAGES, createI18n } from '../../i18n';
import { startEngine, type TestEngine } from '../../test/engine';
import { renderApp } from '../../test/render-app';
import { useAssistants } from '../../stores/assistants-store';
import { TID, rowId } from '../../testids';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startEngine();
  // pdf ships scripts/: under the default "ask" policy it must be approved before it is attached.
  await engine.client.api.approveSkill({ name: 'pdf' });
}, 60_000);
afterAll(async () => {
  cleanup();
  await engine?.close();
});

const NAMES: Record<Language, string> = { en: 'Reviewer', 'zh-CN': '审阅助手', 'zh-TW': '審閱助理', ja: 'レビュー担当' };

describe('removing a skill from an assistant', () => {
  for (const lang of LANGUAGES) {
    it(`the confirmation names the skill and the assistant in ${lang}, and the list updates at once`, async () => {
      const assistant = NAMES[lang];
      const created = await engine.client.api.createAssistant({ name: assistant, agent: 'claude', skills: ['pdf', 'docx', 'code'] });
      expect(created.skills.map((s) => s.name).sort()).toEqual(['code', 'docx', 'pdf']);

      await renderApp(engine, lang, 'assistants');
      fireEvent.click(await screen.findByTestId(rowId(TID.assistantRow, created.id)));
      await screen.findByTestId(rowId(TID.assistantSkillRow, 'docx'));

      fireEvent.click(screen.getByTestId(rowId(TID.assistantSkillRemove, 'docx')));
      const text = (await screen.findByTestId(TID.removeConfirm)).textContent ?? '';
      const i18n = await createI18n(lang);
      expect(text).toBe(i18n.t('assistants.removeConfirm', { skill: 'docx', assistant }));
      expect(text).toContain('docx');
      expect(text).toContain(assistant);
      expect(text).not.toContain('{{');

      await act(async () => {
        fireEvent.click(screen.getByTestId(TID.removeConfirmOk));
      });
      // Gone from the editor at once, the two others still there.
      expect(screen.queryByTestId(rowId(TID.assistantSkillRow, 'docx'))).toBeNull();
      expect(screen.getByTestId(rowId(TID.assistantSkillRow, 'pdf'))).toBeTruthy();
      expect(screen.getByTestId(rowId(TID.assistantSkillRow, 'code'))).toBeTruthy();
      // And the engine agrees.
      await waitFor(async () => {
        const view = await engine.client.api.getAssistant({ assistant: created.id });
        expect(view.skills.map((s) => s.name).sort()).toEqual(['code', 'pdf']);
      });
      await waitFor(() =>
        expect(
          useAssistants
            .getState()
            .view?.skills.map((s) => s.name)
            .sort(),
        ).toEqual(['code', 'pdf']),
      );
      cleanup();
    });
  }
});
