/** The server's locale texts: {{name}} placeholders and dotted keys, one implementation for every plugin. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { englishTexts, fillTemplate, localeFile, textAt } from './texts.ts';

describe('server texts', () => {
  it('fills {{name}} placeholders, with or without spaces inside the braces, and leaves no placeholder behind', () => {
    expect(fillTemplate('{{actor}} liked “{{ title }}”', { actor: 'Ada', title: 'Dusk' })).to.equal('Ada liked “Dusk”');
    expect(fillTemplate('{{count}} new', { count: 0 })).to.equal('0 new');
    expect(fillTemplate('Hello {{name}}!')).to.equal('Hello !');
    // a parameter's own braces are text, not a placeholder filled again
    expect(fillTemplate('{{a}}', { a: '{{b}}', b: 'no' })).to.equal('{{b}}');
  });

  it('reads dotted keys, undefined where a part is missing or not an object', () => {
    const tree = { a: { b: { c: 'deep' } }, s: 'text' };
    expect(textAt(tree, 'a.b.c')).to.equal('deep');
    expect(textAt(tree, 'a.x.c')).to.equal(undefined);
    expect(textAt(tree, 's.length')).to.equal(undefined);
    expect(textAt(null, 'a')).to.equal(undefined);
  });

  it('reads a locale file once per process, and answers null for a file that does not exist', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-texts-'));
    try {
      const file = path.join(dir, 'fr.json');
      fs.writeFileSync(file, JSON.stringify({ a: 'un' }));
      const first = localeFile(file);
      expect(first).to.deep.equal({ a: 'un' });
      fs.writeFileSync(file, JSON.stringify({ a: 'deux' }));
      expect(localeFile(file)).to.equal(first);
      expect(localeFile(path.join(dir, 'xx.json'))).to.equal(null);
      expect(() => englishTexts(dir, 'demo')).to.throw('demo locale file');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a plugin's English texts: filled from en.json, and a missing key throws with the plugin's name", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curio-texts-'));
    try {
      fs.writeFileSync(path.join(dir, 'en.json'), JSON.stringify({ notif: { liked: { title: '{{actor}} liked your insight' } } }));
      const english = englishTexts(dir, 'demo');
      expect(english('notif.liked.title', { actor: 'Ada' })).to.equal('Ada liked your insight');
      expect(() => english('notif.missing')).to.throw('demo locale key notif.missing is missing');
      expect(() => english('notif.liked')).to.throw('is missing');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
