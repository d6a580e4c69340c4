// Linear searches for the scan's line rules. A regular expression such as `curl[^\n]*\|\s*sh` costs
// the square of a line in V8: every `curl` starts an attempt that runs to the end of the line
// before it gives up, so a line of 1 MB made of `curl curl curl …` takes seconds. Here the same
// question is asked in order: find a lead, then the first tail after it, remembering where the
// last search for a tail ended, so that no stretch of the line is searched twice. The answer (the
// leftmost position where the original expression matches) is the same.

/** Where a rule's pattern first matches a line (0-based), or -1; `lead`: what every match starts with. */
export type Find = ((text: string) => number) & { lead?: RegExp };

function withLead(find: (text: string) => number, lead: RegExp): Find {
  return Object.assign(find, { lead });
}

function global(re: RegExp): RegExp {
  return new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
}

/** A plain expression, one that costs a bounded amount at each position of the line. */
export function plain(re: RegExp): Find {
  const r = new RegExp(re.source, re.flags.replace('g', ''));
  return withLead((text) => r.exec(text)?.index ?? -1, r);
}

/**
 * Is there a `tail` after position e, with no `stop` character between? Asked for a rising e on one
 * text, it searches each stretch of the text once: the last hit (or the last miss) answers every e
 * up to it.
 */
export class TailSearch {
  private from = -1;
  private start = -1;
  private end = -1;
  private stopFrom = -1;
  private stopAt = -1;

  constructor(
    private readonly text: string,
    private readonly tail: RegExp,
    private readonly stop: RegExp,
  ) {}

  /** No tail at all starts at or after this position (Infinity while not known). */
  get noneFrom(): number {
    return this.from >= 0 && this.start < 0 ? this.from : Infinity;
  }

  /** Where the tail that may follow position e ends, or -1. */
  after(e: number): number {
    if (!(this.from >= 0 && e >= this.from && (this.start < 0 || e <= this.start))) {
      this.tail.lastIndex = e;
      const m = this.tail.exec(this.text);
      this.from = e;
      this.start = m ? m.index : -1;
      this.end = m ? m.index + m[0].length : -1;
    }
    if (this.start < 0) return -1;
    if (this.stopFrom < 0 || e < this.stopFrom || e > this.stopAt) {
      this.stop.lastIndex = e;
      this.stopFrom = e;
      this.stopAt = this.stop.exec(this.text)?.index ?? this.text.length;
    }
    return this.start <= this.stopAt ? this.end : -1;
  }
}

/** A global copy of `re` and of what ends a gap (a class of characters, or an expression). */
export function tailParts(stop: string | RegExp, re: RegExp): [RegExp, RegExp] {
  const stopRe = typeof stop === 'string' ? new RegExp(`[${stop.replace(/[\\\]^-]/g, '\\$&')}]`) : stop;
  return [global(re), global(stopRe)];
}

/**
 * `parts[0] [^stop]* parts[1] [^stop]* parts[2] …`: each part a bounded token, each gap any run of
 * characters but `stop`. Each lead is tried where the expression would try it; each later part is
 * the first one after the gap (TailSearch).
 */
export function ordered(stop: string | RegExp, ...parts: RegExp[]): Find {
  const lead = global(parts[0]);
  const tails = parts.slice(1).map((p) => tailParts(stop, p));
  return withLead((text) => {
    lead.lastIndex = 0;
    let m = lead.exec(text);
    if (!m) return -1; // most lines: one search, nothing to set up
    const searches = tails.map(([tail, stopRe]) => new TailSearch(text, tail, stopRe));
    for (; m; m = lead.exec(text)) {
      const i = m.index;
      // A lead starting here ends here or later: if no tail starts from here on, none can follow.
      if (i >= searches[0].noneFrom) break;
      lead.lastIndex = i + 1;
      let e = i + m[0].length;
      for (const s of searches) {
        e = s.after(e);
        if (e < 0) break;
      }
      if (e >= 0) return i;
    }
    return -1;
  }, parts[0]);
}

/** The leftmost of several searches, as an alternation `a|b|c` would find it. */
export function leftmost(...finds: Array<Find | RegExp>): Find {
  const fs = finds.map((f) => (f instanceof RegExp ? plain(f) : f));
  // Most lines hold no lead of any part: one search over all the leads says so (a match of the
  // whole starts where one of its parts' leads matches). Only when they read letters alike.
  const leads = fs.map((f) => f.lead);
  const flags = new Set(leads.map((l) => l?.flags.replace(/[gy]/g, '')));
  const any = leads.every((l) => l) && flags.size === 1 ? new RegExp(leads.map((l) => `(?:${l!.source})`).join('|'), [...flags][0]) : null;
  return (text) => {
    if (any && !any.test(text)) return -1;
    let best = -1;
    for (const f of fs) {
      const i = f(text);
      if (i >= 0 && (best < 0 || i < best)) best = i;
    }
    return best;
  };
}
