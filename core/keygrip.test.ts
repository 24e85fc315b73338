/** The signed-cookie keys remember verified signatures (issue 18) and still refuse every wrong one. */
import { expect } from 'chai';
import Keygrip from 'keygrip';
import { rememberingKeygrip } from './app.ts';

describe('signed-cookie keys: remembered verifications', () => {
  const keys = ['new-key-0000000000000000', 'old-key-1111111111111111'];

  it('answers exactly as Keygrip does, the first time and again', () => {
    const grip = new Keygrip(keys);
    const oldGrip = new Keygrip([keys[1]]);
    const k = rememberingKeygrip(keys);
    const data = 'curio.sid=abc123';
    const cases: Array<[string, string]> = [
      [data, grip.sign(data)], // the current key
      [data, oldGrip.sign(data)], // a rotated-out key: index 1
      [data, grip.sign(data).slice(0, -1) + (grip.sign(data).endsWith('A') ? 'B' : 'A')], // one character off
      ['curio.sid=abc124', grip.sign(data)], // another value with this signature
      [data, ''],
    ];
    for (let round = 0; round < 3; round++)
      for (const [d, sig] of cases) {
        expect(k.index(d, sig), `${d} ${sig} round ${round}`).to.equal(grip.index(d, sig));
        expect(k.verify(d, sig)).to.equal(grip.verify(d, sig));
      }
    expect(k.sign(data)).to.equal(grip.sign(data));
  });

  it('a wrong signature is never remembered as right, even for a value verified before', () => {
    const k = rememberingKeygrip(keys);
    const data = 'curio.sid=xyz';
    const good = k.sign(data);
    expect(k.verify(data, good)).to.equal(true);
    for (let i = 0; i < 20_000; i++) expect(k.verify(data, `forged${i}`)).to.equal(false);
    expect(k.verify(data, good)).to.equal(true);
  });

  it('reads like the array of keys (keys[0])', () => {
    const k = rememberingKeygrip(keys);
    expect(k[0]).to.equal(keys[0]);
    expect(k.length).to.equal(2);
  });
});
