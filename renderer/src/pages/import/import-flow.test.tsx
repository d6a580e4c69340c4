// @vitest-environment happy-dom
import '../../test/setup';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { startEngine, type TestEngine } from '../../test/engine';
import { renderApp } from '../../test/render-app';
import { useImport } from '../../stores/import-store';
import { TID, rowId } from '../../testids';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startEngine();
}, 60_000);
afterEach(() => cleanup());
afterAll(async () => {
  await engine?.close();
});

function incoming(name: string, description: string): string {
  const dir = path.join(engine.home, '..', `in-${Date.now()}-${Math.random().toString(36).slice(2)}`, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`);
  return dir;
}

const libraryNames = async () => (await engine.client.api.listLibrary({})).skills.map((s) => s.name).sort();

describe('import from the UI', () => {
  it('asks about a conflict, keeps both, lists the result, and undoes it from the toast', async () => {
    await renderApp(engine, 'en', 'skills');
    const src = incoming('docx', 'Another docx.');
    await act(async () => {
      await useImport.getState().importPaths([src]);
    });
    const dialog = await screen.findByTestId(TID.conflictDialog);
    expect(dialog.textContent).toContain('docx');
    expect(await libraryNames()).not.toContain('docx-2'); // nothing written before the answer

    await act(async () => {
      fireEvent.click(screen.getByTestId(TID.conflictKeepBoth));
    });
    const row = await screen.findByTestId(rowId(TID.importResultRow, 'docx'));
    expect(row.getAttribute('data-status')).toBe('kept-both');
    expect(row.textContent).toContain('docx-2');
    expect(await libraryNames()).toContain('docx-2');

    const undo = await screen.findByTestId(TID.undoButton);
    // The button names the operation it undoes (its own, by journal id)
    expect(undo.textContent).toBe('Undo import of docx-2 beside the existing one');
    await act(async () => {
      fireEvent.click(undo);
    });
    await waitFor(async () => expect(await libraryNames()).not.toContain('docx-2'));
    // The window says so, with the operation in words.
    await screen.findByText('Undone: import of docx-2 beside the existing one');
    // and offers Redo, which brings it back
    const redo = await screen.findByTestId(TID.toastRedo);
    await act(async () => {
      fireEvent.click(redo);
    });
    await waitFor(async () => expect(await libraryNames()).toContain('docx-2'));
  });

  it.each([
    ['zh-CN', '已按 SKILL.md 中的名称命名为“skill-from-md”，而不是其文件夹名“dropped-folder”'],
    ['ja', 'フォルダー名「dropped-folder」ではなく、SKILL.md の名前に従って「skill-from-md」という名前になりました'],
  ] as const)('says in %s that a folder was imported under its SKILL.md name', async (lang, words) => {
    await renderApp(engine, lang, 'skills');
    const dir = path.join(engine.home, '..', `in-${lang}`, 'dropped-folder');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: skill-from-md\ndescription: Named unlike its folder.\n---\n\n# x\n');
    await act(async () => {
      await useImport.getState().importPaths([dir]);
    });
    const row = await screen.findByTestId(rowId(TID.importResultRow, 'skill-from-md'));
    expect(row.querySelector(`[data-testid="${TID.importNotice}"]`)?.textContent).toBe(words);
    expect(row.textContent).not.toMatch(/named "|after its folder|\{\{/);
    // The folder/name mismatch is no finding of the library copy: no "1 finding" for it.
    expect(row.textContent).not.toMatch(/检查问题|リントの指摘/);
    await act(async () => {
      await engine.client.api.deleteSkill({ name: 'skill-from-md' });
    });
  });

  it('imports a new skill and reports one already present', async () => {
    await renderApp(engine, 'en', 'skills');
    const fresh = incoming('fresh-one', 'Brand new.');
    const pdf = path.join(engine.home, 'library', 'pdf');
    const copy = path.join(engine.home, '..', 'pdf-copy', 'pdf');
    fs.cpSync(pdf, copy, { recursive: true });
    await act(async () => {
      await useImport.getState().importPaths([fresh, copy]);
    });
    await screen.findByTestId(TID.importSummary);
    expect(screen.getByTestId(rowId(TID.importResultRow, 'fresh-one')).getAttribute('data-status')).toBe('imported');
    expect(screen.getByTestId(rowId(TID.importResultRow, 'pdf')).getAttribute('data-status')).toBe('already-present');
    expect(screen.queryByTestId(TID.conflictDialog)).toBeNull();
  });
});
