import { expect } from 'chai';
import { sharedApp } from '../../../core/testing/index.ts';
import { personalSource, readPage, decodeCursor, encodeCursor } from './posts.ts';

describe('insights: feed reading strategies', function () {
  this.timeout(60000);

  it('merges per-follow index scans and the filtered time scan into the same pages', async () => {
    const app = await sharedApp();
    const k = app.knex;
    // authors and museums far from any real ids; posts with shared timestamps to test the id tie-break
    const base = 1_900_000_000 + Math.floor(Math.random() * 1_000_000);
    const authors = [base, base + 1, base + 2, base + 3];
    const museums = [base + 10, base + 11];
    const rows = [];
    for (let i = 0; i < 60; i++) {
      const t = new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 3))).toISOString(); // three posts per second
      rows.push({ user_id: authors[i % 4], type: 'text', content: `p${i}`, museum_id: i % 5 === 0 ? museums[i % 2] : null, created_at: t });
    }
    // posts by someone not followed, about a followed museum (must be included) and not (must not)
    rows.push({ user_id: base + 99, type: 'text', content: 'museum', museum_id: museums[0], created_at: '2026-01-01T00:00:30.000Z' });
    rows.push({ user_id: base + 99, type: 'text', content: 'other', museum_id: null, created_at: '2026-01-01T00:00:31.000Z' });
    const inserted = await k('insights_posts').insert(rows).returning(['id', 'user_id', 'museum_id', 'created_at']);
    const expected = inserted
      .filter((r: any) => authors.includes(r.user_id) || museums.includes(r.museum_id))
      .sort((a: any, b: any) => b.created_at - a.created_at || b.id - a.id)
      .map((r: any) => r.id);

    const follow = [...authors.slice(0, 3), base + 3];
    for (const lateralLimit of [1000, 1]) {
      const source = personalSource(k, { users: k.raw('select unnest(?::int[])', [follow]), museums: k.raw('select unnest(?::int[])', [museums]) }, { lateralLimit });
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page = await readPage(source, { limit: 7, cursor: decodeCursor(cursor), visible: async (r) => r });
        seen.push(...page.rows.map((r) => r.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen, `lateralLimit ${lateralLimit}`).to.deep.equal(expected);
    }
    await k('insights_posts').whereIn('id', inserted.map((r: any) => r.id)).del();
  });

  it('round-trips cursors and refuses forged ones', () => {
    const c = encodeCursor({ created_at: new Date('2026-02-03T04:05:06.789Z'), id: 42 });
    expect(decodeCursor(c)).to.deep.equal({ t: '2026-02-03T04:05:06.789Z', id: 42 });
    expect(() => decodeCursor(Buffer.from("2026-01-01T00:00:00Z|1' or 1=1").toString('base64url'))).to.throw('Invalid cursor');
    expect(() => decodeCursor(Buffer.from('2026-01-01T00:00:00.000Z|99999999999').toString('base64url'))).to.throw('Invalid cursor');
  });
});
