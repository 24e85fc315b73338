/**
 * Discover's URL parsing (shared by the page and the server render of a shared link) and the
 * distances in the viewer's unit: kilometres unless the locale's region uses miles.
 */
import { expect } from 'chai';
import { museumsQuery, parseRadius, readDiscoverState } from '../shared/discover-query.ts';
import { distanceUnit, formatDistance, formatRadius } from '../shared/distance.ts';

const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('museums: Discover query and distance units', () => {
  it('picks miles for the regions that use them, kilometres elsewhere, from the language and its region', () => {
    expect(['en', 'en-US', 'en-GB', 'fr', 'fr-FR', 'fr-CA', 'en-AU', 'en-CA', 'de', ''].map(distanceUnit)).to.deep.equal([
      'mile', 'mile', 'mile', 'kilometer', 'kilometer', 'kilometer', 'kilometer', 'kilometer', 'kilometer', 'mile',
    ]);
    expect(distanceUnit('not a tag!')).to.equal('kilometer');
  });

  it('formats a distance given in miles in the viewer\'s unit and number format', () => {
    expect(nbsp(formatDistance(2.34, 'en'))).to.equal('2.3 mi');
    expect(nbsp(formatDistance(2.34, 'fr'))).to.equal('3,8 km');
    expect(nbsp(formatDistance(243.4, 'fr'))).to.equal('391,7 km');
    expect(nbsp(formatDistance(1000, 'en-AU'))).to.equal('1,609.3 km');
    expect(nbsp(formatRadius(25, 'mi', 'fr'))).to.equal('25 mi');
  });

  it('reads a radius with its unit only beside a near point, and asks the API in miles', () => {
    expect(parseRadius('10km')).to.deep.equal({ value: 10, unit: 'km' });
    expect(parseRadius('2.5mi')).to.deep.equal({ value: 2.5, unit: 'mi' });
    for (const bad of ['10', 'km', '-3km', '0mi', '99999mi', '10 miles', '1e3km']) expect(parseRadius(bad), bad).to.equal(null);
    const without = readDiscoverState(new URLSearchParams('radius=10km'));
    expect(without.radius).to.equal(null);
    expect(museumsQuery(without)).not.to.contain('radius');
    const s = readDiscoverState(new URLSearchParams('near=48.85,2.35&radius=50km&category=Science%20Museums&open=now&access=stepFreeEntrance,bogus&sort=bogus'));
    expect(s).to.include({ category: 'Science Museums', open: true, sort: 'distance' });
    expect(s.access).to.deep.equal(['stepFreeEntrance']);
    expect(museumsQuery(s)).to.equal('/api/museums?page=1&pageSize=24&category=Science+Museums&open=now&access=stepFreeEntrance&near=48.85%2C2.35&radius=31.0686&sort=distance');
    expect(museumsQuery(readDiscoverState(new URLSearchParams('near=48.85,2.35&radius=5mi')))).to.contain('radius=5&');
  });
});
