import type { AgentView, MessageRef, VerifyRow, VerifyShown } from '../contract/index.js';
import type { Captured } from './listings.js';

// Prediction (the agent view) against capture (the listing the CLI really sent), one row per label.
// The capture is what the model saw: where the two differ, the row's advice says what to do.

interface Side {
  shown: VerifyShown;
  description: string | null;
  entryId: string | null;
}

const MISSING: Side = { shown: 'missing', description: null, entryId: null };

function predictedSide(s: AgentView['skills'][number]): Side {
  const shown = s.listing.shown === 'hidden' ? 'missing' : s.listing.shown;
  return { shown, description: shown === 'missing' || shown === 'name-only' ? null : s.listing.description, entryId: s.entryId };
}

/** A found nested skill: listed, worded as captured (none captured: predicted in full, text unknown). */
function nestedSide(c: Captured | undefined): Side {
  return c
    ? { shown: c.description === null ? 'name-only' : 'full', description: c.description, entryId: null }
    : { shown: 'full', description: null, entryId: null };
}

/** How the captured text stands to the prediction: the same, a cut of it, or the full text. */
function capturedShown(c: Captured, predicted: Side): VerifyShown {
  if (c.description === null) return 'name-only';
  if (predicted.description !== null && c.description === predicted.description) return predicted.shown;
  const cut = c.description.replace(/(?:…|\.\.\.)$/, '');
  const whole = predicted.description;
  if (whole !== null && cut.length < whole.length && whole.startsWith(cut.trimEnd())) return 'shortened';
  return /(?:…|\.\.\.)$/.test(c.description) ? 'shortened' : 'full';
}

function advice(agent: string, p: Side, c: Side, same: boolean): MessageRef | null {
  if (c.shown === 'shortened') return { key: 'verify.advice.shortened', params: { agent, chars: [...(c.description ?? '')].length } };
  if (c.shown === 'name-only') return { key: 'verify.advice.name-only', params: { agent } };
  if (same) return null;
  if (c.shown === 'missing') return { key: 'verify.advice.missing', params: { agent } };
  if (p.entryId === null) return { key: 'verify.advice.unexpected', params: { agent } };
  if (p.shown === 'missing') return { key: 'verify.advice.listed-anyway', params: { agent } };
  return { key: 'verify.advice.text', params: { agent } };
}

/**
 * The rows for every label on either side; `builtins` (the CLI's own skills) left out. A skill
 * nested below a folder of a root is no catalog entry: the view only says whether the agent finds
 * it, so a found one is predicted listed as the capture words it (found, not listed: a difference).
 */
export function compareListing(view: AgentView, captured: Captured[], builtins: readonly string[]): VerifyRow[] {
  const nested = new Set(view.nested.filter((n) => n.found).map((n) => n.dir.split(/[\\/]/).pop()!));
  const predicted = new Map<string, Side[]>();
  for (const s of view.skills) {
    const list = predicted.get(s.listing.label) ?? [];
    list.push(predictedSide(s));
    predicted.set(s.listing.label, list);
  }
  const got = new Map<string, Captured[]>();
  for (const c of captured) {
    if (builtins.includes(c.name) && !predicted.has(c.name)) continue;
    got.set(c.name, [...(got.get(c.name) ?? []), c]);
  }
  const rows: VerifyRow[] = [];
  for (const label of new Set([...predicted.keys(), ...got.keys()])) {
    // A label listed more than once (an agent that lists every copy) is paired in order; a
    // prediction that leaves a copy out sorts it last.
    const ps = [...(predicted.get(label) ?? [])].sort((a, b) => Number(a.shown === 'missing') - Number(b.shown === 'missing'));
    const cs = got.get(label) ?? [];
    for (let i = 0; i < Math.max(ps.length, cs.length); i++) {
      const c = cs[i];
      const p = ps[i] ?? (nested.has(label) ? nestedSide(c) : MISSING);
      const cap: Side = c ? { shown: capturedShown(c, p), description: c.description, entryId: null } : MISSING;
      const same = p.shown === cap.shown && p.description === cap.description;
      rows.push({
        label,
        entryId: p.entryId,
        predicted: { shown: p.shown, description: p.description },
        captured: { shown: cap.shown, description: cap.description },
        same,
        advice: advice(view.agent.name, p, cap, same),
      });
    }
  }
  return rows;
}
