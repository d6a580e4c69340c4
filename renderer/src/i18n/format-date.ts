/**
 * Every date and time the window shows, in one style per language: the day as the language writes it
 * (medium) and the time to the minute. History, Trash, Launch, Updates, the drawer's provenance and
 * the doctor banner used to format on their own (`toLocaleString` gave "12/7/2026, 12:06:03 AM" in
 * Trash and History while the rest of the app said "Dec 7, 2026, 12:06 AM").
 * test/renderer-dates.test.ts keeps other formatters out of the renderer.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(language: string): Intl.DateTimeFormat {
  let f = formats.get(language);
  if (!f) {
    f = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    formats.set(language, f);
  }
  return f;
}

/** A time as the user's language writes it, to the minute; an unreadable value is shown as given. */
export function formatWhen(value: string | number | Date, language: string): string {
  if (value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? String(value) : formatFor(language).format(d);
}
