// The bound on the text XML entity references produce (src/http/xmlEntities.ts): the
// pre-scan's upper bound as a table, the counter of a parser's entity hook, and the RDF/XML
// reader that applies both (src/rdf/parse.ts).
import { expect } from 'chai';
import { checkXmlEntities, entityBudget, entityCounter, entityTextBound, ENTITY_TEXT_LIMIT, EntityExpansionRefused } from '../../../src/http/xmlEntities.ts';
import { parseRdf } from '../../../src/rdf/parse.ts';
import { HttpError } from '../../../src/errors.ts';
import { ERR } from '../../../src/rdf/vocab.ts';

const NS = 'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"';
/** An RDF/XML document with `dtd` as its internal subset and `title` as one literal. */
const rdfxml = (dtd: string, title: string, about = 'http://e.org/a') =>
  `<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [${dtd}]>\n<rdf:RDF ${NS}><rdf:Description rdf:about="${about}"><dc:title>${title}</dc:title></rdf:Description></rdf:RDF>\n`;

/** The attack of the issue: one 10,000-character entity used 10,000 times (about 40 KB). */
const ENTITY_BOMB = rdfxml(`<!ENTITY a "${'x'.repeat(10_000)}">`, '&a;'.repeat(10_000));
/** Entities referring to entities: ten levels of ten, 10^10 characters from a few hundred. */
const BILLION_LAUGHS = rdfxml(
  '<!ENTITY l0 "lol">' + Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join(''),
  '&l9;',
);

async function refusal(p: Promise<unknown>): Promise<HttpError> {
  try {
    await p;
  } catch (e) {
    return e as HttpError;
  }
  throw new Error('expected a refusal');
}

describe('XML entity bound', () => {
  it('the budget is 1 MiB or 10 times the document, whichever is less', () => {
    expect(entityBudget(1000)).to.equal(10_000);
    expect(entityBudget(10 * 1024 * 1024)).to.equal(ENTITY_TEXT_LIMIT);
    expect(ENTITY_TEXT_LIMIT).to.equal(1_048_576);
  });

  const TABLE: Array<{ what: string; text: string; bound: number }> = [
    { what: 'no DTD', text: '<a>&amp;&lt;&#10;</a>', bound: 0 },
    { what: 'a declared entity never used', text: '<!DOCTYPE a [<!ENTITY e "xyz">]><a/>', bound: 0 },
    { what: 'one use in text', text: '<!DOCTYPE a [<!ENTITY e "xyz">]><a>&e;</a>', bound: 3 },
    { what: 'uses in attributes', text: '<!DOCTYPE a [<!ENTITY e \'http://e.org/\'>]><a b="&e;x" c="&e;y"/>', bound: 26 },
    { what: 'an entity referring to another (counted once within, once as written)', text: '<!DOCTYPE a [<!ENTITY e "ab"><!ENTITY f "&e;&e;c">]><a>&f;</a>', bound: 2 + 2 + (7 + 4) },
    { what: 'the longest of two declarations of one name', text: '<!DOCTYPE a [<!ENTITY e "ab"><!ENTITY e "abcdef">]><a>&e;</a>', bound: 6 },
    { what: 'a parameter entity used in the DTD', text: '<!DOCTYPE a [<!ENTITY % p "<!ENTITY e \'xy\'>"> %p;]><a>&e;</a>', bound: 16 + 2 },
    { what: 'a declaration inside a comment (rdfxml-streaming-parser reads it)', text: '<!DOCTYPE a [<!-- <!ENTITY e "xyz"> -->]><a>&e;</a>', bound: 3 },
    { what: 'a redeclared predefined entity', text: '<!DOCTYPE a [<!ENTITY amp "12345">]><a>&amp;&amp;</a>', bound: 10 },
    { what: 'a value without its closing quote, read up to any quote', text: '<!DOCTYPE a [<!ENTITY e "abcd\'>]><a>&e;</a>', bound: 4 },
  ];
  for (const { what, text, bound } of TABLE) {
    it(`bound: ${what}`, () => expect(entityTextBound(text)).to.equal(bound));
  }

  it('the issue\'s attack and billion laughs are refused before parsing, with a 400 EntityExpansionLimit naming the sizes', () => {
    expect(ENTITY_BOMB.length).to.be.within(40_000, 41_000);
    for (const text of [ENTITY_BOMB, BILLION_LAUGHS]) {
      const started = Date.now();
      let err: unknown;
      try {
        checkXmlEntities(text, 'the test body');
      } catch (e) {
        err = e;
      }
      expect(Date.now() - started).to.be.below(200);
      expect(err).to.be.instanceOf(EntityExpansionRefused);
      const e = err as HttpError;
      expect(e.status).to.equal(400);
      expect(e.code.value).to.equal(ERR.EntityExpansionLimit.value);
      expect(e.message).to.match(/^the test body: its entity references would produce \d+ characters, more than the \d+ allowed for a document of \d+ characters$/);
    }
    expect(entityTextBound(ENTITY_BOMB)).to.equal(100_000_000);
    expect(entityTextBound(BILLION_LAUGHS)).to.be.above(3e9);
  });

  it('an entity that refers to itself, directly or not, is refused', () => {
    for (const dtd of ['<!ENTITY e "x&e;">', '<!ENTITY e "&f;"><!ENTITY f "&e;">']) {
      expect(() => checkXmlEntities(`<!DOCTYPE a [${dtd}]><a>&e;</a>`)).to.throw(EntityExpansionRefused, /refers to itself/);
    }
  });

  it('a chain of entities deeper than 64 is refused, without exhausting the stack', () => {
    // Declared from the top down, so the bound meets the deepest reference first.
    const chain = (n: number) => '<!DOCTYPE a [' + Array.from({ length: n }, (_, i) => `<!ENTITY e${n - i} "&e${n - i - 1};">`).join('') + `<!ENTITY e0 "x">]><a>&e${n};</a>`;
    expect(() => checkXmlEntities(chain(63))).not.to.throw();
    expect(() => checkXmlEntities(chain(100_000))).to.throw(EntityExpansionRefused, /entities refer to entities more than 64 deep/);
  });

  it('a used external entity is refused by name; declared and unused, it is harmless', () => {
    for (const dtd of ['<!ENTITY e SYSTEM "file:///etc/passwd">', '<!ENTITY e PUBLIC "-//x//y" "http://127.0.0.1:1/x">', '<!ENTITY % e SYSTEM "http://127.0.0.1:1/x"> %e;']) {
      const use = dtd.includes('%') ? '' : '&e;';
      expect(() => checkXmlEntities(`<!DOCTYPE a [${dtd}]><a>${use}</a>`), dtd).to.throw(EntityExpansionRefused, /the external entity "e" is never read/);
    }
    expect(() => checkXmlEntities('<!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a/>')).not.to.throw();
  });

  it('namespace abbreviations as OWL files use them stay within the bound', () => {
    const dtd = ['owl', 'http://www.w3.org/2002/07/owl#', 'xsd', 'http://www.w3.org/2001/XMLSchema#', 'rdfs', 'http://www.w3.org/2000/01/rdf-schema#']
      .reduce((out, v, i, all) => (i % 2 ? out : `${out}<!ENTITY ${v} "${all[i + 1]}">`), '');
    const text = `<!DOCTYPE rdf:RDF [${dtd}]><rdf:RDF>` + '<owl:Class rdf:about="&owl;Thing"><rdfs:range rdf:resource="&xsd;string"/></owl:Class>'.repeat(200) + '</rdf:RDF>';
    expect(() => checkXmlEntities(text)).not.to.throw();
  });

  it('the counter passes character references and predefined entities, and stops at the budget', () => {
    const count = entityCounter(100, 'the body');
    for (let i = 0; i < 5000; i++) count('amp', '&');
    count('#10', '\n');
    count('e', 'x'.repeat(1000));
    expect(() => count('e', 'x')).to.throw(EntityExpansionRefused, /^the body: its entity references produced more than the 1000 characters allowed/);
    // A redeclared predefined entity counts like any other.
    const again = entityCounter(10);
    expect(() => again('amp', 'x'.repeat(101))).to.throw(EntityExpansionRefused);
  });

  it('the scan stays linear on hostile DTD text', () => {
    for (const text of ['<!ENTITY'.repeat(200_000), '<!ENTITY a "'.repeat(100_000), `<!ENTITY a "x">${'&'.repeat(500_000)}`, `<!ENTITY a "x">&${'a'.repeat(500_000)}`]) {
      const started = Date.now();
      entityTextBound(text);
      expect(Date.now() - started, text.slice(0, 20)).to.be.below(1000);
    }
  });
});

describe('the RDF/XML reader bounds entities', () => {
  it('the attack and billion laughs are refused as EntityExpansionLimit, not read', async () => {
    for (const text of [ENTITY_BOMB, BILLION_LAUGHS]) {
      const err = await refusal(parseRdf(text, 'rdfxml', 'http://e.org/'));
      expect(err).to.be.instanceOf(EntityExpansionRefused);
      expect(err.message).to.match(/^the RDF\/XML body: /);
    }
  });

  it('what the pre-scan does not read as a declaration is still counted while parsing', async () => {
    // The pre-scan's names stop at "<" (to stay linear); rdfxml-streaming-parser reads "a<b".
    const text = rdfxml(`<!ENTITY a<b "${'x'.repeat(10_000)}">`, '&a<b;'.repeat(1000));
    expect(entityTextBound(text)).to.equal(0);
    const err = await refusal(parseRdf(text, 'rdfxml', 'http://e.org/'));
    expect(err).to.be.instanceOf(EntityExpansionRefused);
    expect(err.message).to.match(/^the RDF\/XML body: its entity references produced more than the \d+ characters allowed/);
  });

  it('namespace entities in attributes and text are expanded as before', async () => {
    const quads = await parseRdf(rdfxml('<!ENTITY e "http://e.org/"><!ENTITY t "Title">', '&t; one', '&e;thing'), 'rdfxml', 'http://e.org/');
    expect(quads.map((q) => [q.subject.value, q.object.value])).to.deep.equal([['http://e.org/thing', 'Title one']]);
  });

  it('an external entity is still refused (and never read)', async () => {
    const err = await refusal(parseRdf(rdfxml('<!ENTITY x SYSTEM "file:///etc/passwd">', '&x;'), 'rdfxml', 'http://e.org/'));
    expect(err.status).to.equal(400);
    expect(err.message).not.to.include('root:');
  });
});
