import type { TFunction } from 'i18next';
import { MERGE_MARKER_LABELS, type MergeMarkerLabel } from '../../../../src/contract/index';

// The engine labels the conflict markers of a merged text with codes (`<<<<<<< mine`); the window
// shows them in the user's language (`<<<<<<< 自分の版`). Whatever the label, a marker line is a
// marker: the check for markers left in an edited text looks at the seven marker characters only,
// so it refuses markers of every language (and the engine's own).

const MARKER_OF: Record<MergeMarkerLabel, string> = { mine: '<<<<<<<', installed: '|||||||', upstream: '>>>>>>>' };

/** A line that opens, splits or closes a conflict, with any label or none. */
const MARKER_LINE = /^(<{7}|\|{7}|={7}|>{7})( |$)/m;

/** `text` with the engine's marker labels worded in the user's language. */
export function wordMarkers(text: string, t: TFunction): string {
  let out = text;
  for (const label of MERGE_MARKER_LABELS) {
    const marker = MARKER_OF[label];
    const escaped = marker.replace(/\|/g, '\\|');
    out = out.replace(new RegExp(`^${escaped} ${label}$`, 'gm'), `${marker} ${t(`sources.conflict.markerLabel.${label}`)}`);
  }
  return out;
}

/** Whether an edited text still holds a conflict marker line. */
export function hasMarkers(text: string): boolean {
  return MARKER_LINE.test(text);
}
