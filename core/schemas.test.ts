import { expect } from 'chai';
import { SchemaRegistry } from './schemas.ts';

describe('schema registry', () => {
  it('resolves $ref by exact id from a schema that has an $id of its own', () => {
    const reg = new SchemaRegistry();
    reg.add({ $id: 'zz/Catalog', definitions: { Color: { enum: ['red', 'blue'] } } });
    reg.add({ $id: 'zz/Thing', type: 'object', properties: { color: { $ref: 'zz/Catalog#/definitions/Color' }, other: { $ref: 'zz/Other' } } });
    reg.add({ $id: 'zz/Other', type: 'integer' });
    const v = reg.compile('body', { $ref: 'zz/Thing' });
    expect(v({ color: 'red', other: 3 })).to.equal(true);
    expect(v({ color: 'green', other: 3 })).to.equal(false);
    expect(v({ color: 'red', other: 'x' })).to.equal(false);
  });
});
