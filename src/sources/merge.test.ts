import { describe, expect, it } from 'vitest';
import { asText, merge3 } from './merge.js';

const base = 'one\ntwo\nthree\nfour\nfive\nsix\n';

describe('merge3', () => {
  it('takes the one side that changed, or the same change once', () => {
    expect(merge3(base, base, 'ONE\n')).toEqual({ clean: true, text: 'ONE\n' });
    expect(merge3(base, 'mine\n', base)).toEqual({ clean: true, text: 'mine\n' });
    expect(merge3(base, 'x\n', 'x\n')).toEqual({ clean: true, text: 'x\n' });
  });

  it('merges changes that do not overlap, line by line', () => {
    const ours = 'one\ntwo (my note)\nthree\nfour\nfive\nsix\n';
    const theirs = 'one\ntwo\nthree\nfour\nFIVE\nsix\nseven\n';
    expect(merge3(base, ours, theirs)).toEqual({ clean: true, text: 'one\ntwo (my note)\nthree\nfour\nFIVE\nsix\nseven\n' });
    // insertion at the top by one side, deletion at the bottom by the other
    expect(merge3(base, 'zero\n' + base, 'one\ntwo\nthree\nfour\nfive\n')).toEqual({
      clean: true,
      text: 'zero\none\ntwo\nthree\nfour\nfive\n',
    });
    // identical edits on both sides of one region plus a separate edit
    expect(merge3(base, 'one\nTWO\nthree\nfour\nfive\nsix\n', 'one\nTWO\nthree\nfour\nfive\nSIX\n')).toEqual({
      clean: true,
      text: 'one\nTWO\nthree\nfour\nfive\nSIX\n',
    });
  });

  it('reports overlapping changes as conflicts with the three versions in markers', () => {
    const r = merge3(base, 'one\ntwo mine\nthree\nfour\nfive\nsix\n', 'one\ntwo upstream\nthree\nfour\nfive\nsix\n');
    expect(r.clean).toBe(false);
    expect(r).toMatchObject({ conflicts: 1 });
    expect(r.text).toBe(
      'one\n<<<<<<< mine\ntwo mine\n||||||| installed\ntwo\n=======\ntwo upstream\n>>>>>>> upstream\nthree\nfour\nfive\nsix\n',
    );
    // adjacent but distinct regions: a conflict only where they touch the same base lines
    const r2 = merge3(base, 'one\ntwo\nthree\nfour mine\nfive\nsix\n', 'one\nTWO\nthree\nfour\nfive\nsix\n');
    expect(r2).toEqual({ clean: true, text: 'one\nTWO\nthree\nfour mine\nfive\nsix\n' });
  });

  it('tells text from binary', () => {
    expect(asText(Buffer.from('héllo\n'))).toBe('héllo\n');
    expect(asText(Buffer.from([0x61, 0, 0x62]))).toBeNull();
    expect(asText(Buffer.from([0xff, 0xfe, 0x41]))).toBeNull();
  });
});
