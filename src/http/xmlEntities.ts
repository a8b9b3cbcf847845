// The text XML entity references may produce, bounded before and while an XML body is
// parsed (RDF/XML, OWL, CML, CDXML; bodies and remote documents alike). A DTD's internal
// entities can multiply a small body: one 10,000-character entity used 10,000 times is
// 40 KB of XML and 100 MB of text, and entities referring to entities ("billion laughs")
// grow exponentially. Ordinary use, namespace abbreviations in OWL files, stays far below.
import { HttpError } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';

/** At most 1 MiB of entity text, and never more than 10 times the document itself. */
export const ENTITY_TEXT_LIMIT = 1024 * 1024;
export const ENTITY_TEXT_FACTOR = 10;

export const entityBudget = (documentLength: number): number => Math.min(ENTITY_TEXT_LIMIT, ENTITY_TEXT_FACTOR * documentLength);

/** Entities within entities deeper than this are refused (ordinary documents nest none). */
export const ENTITY_DEPTH_LIMIT = 64;

/** The entities the XML specification predefines (XML 1.0 §4.6): never longer than their reference. */
const PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);

export class EntityExpansionRefused extends HttpError {
  constructor(what: string, message: string) {
    super(400, ERR.EntityExpansionLimit, `${what}: ${message}`, {
      details: `Entity references may produce at most ${ENTITY_TEXT_LIMIT} characters, and at most ${ENTITY_TEXT_FACTOR} times the document's length; external entities are never read. Write the text out instead of declaring it as an entity.`,
    });
  }
}

// Declarations are looked for anywhere in the text (inside comments and parameter entity
// values too, where rdfxml-streaming-parser also finds them). General and parameter
// entities share one table of names: a reference of either kind counts the longest entity
// of its name, which bounds every reading.
// A name never spans a "<", so that each match attempt ends at the next tag (linear time).
const GENERAL = /<!ENTITY\s+([^\s<]+)\s+(SYSTEM\b|PUBLIC\b|["'])/gi;
const PARAMETER = /<!ENTITY\s+%\s*([^\s<]+)\s+(SYSTEM\b|PUBLIC\b|["'])/gi;
const REFERENCE = /[&%]([^\s;&%]+);/g;

interface Declared {
  /** The longest replacement text declared under this name. */
  value: string;
  external: boolean;
}

function declarations(text: string): Map<string, Declared> {
  const out = new Map<string, Declared>();
  for (const m of [...text.matchAll(GENERAL), ...text.matchAll(PARAMETER)]) {
    const name = m[1]!; // groups 1 and 2 are not optional
    const opener = m[2]!;
    const quoted = opener === '"' || opener === "'";
    const start = m.index! + m[0].length;
    let value = '';
    if (quoted) {
      // Up to the matching quote; without one, up to any quote, as a lenient reader takes it.
      let end = text.indexOf(opener, start);
      if (end < 0) end = text.slice(start).search(/["']/) + start;
      value = text.slice(start, end >= start ? end : undefined);
    }
    const seen = out.get(name);
    out.set(name, { value: seen && seen.value.length > value.length ? seen.value : value, external: (seen?.external ?? false) || !quoted });
  }
  return out;
}

/**
 * The most text the entity references of `text` can produce under any reading: each
 * reference counts its entity's value with every reference inside that value expanded
 * again (as XML 1.0 §4.4 expands them), parameter entities included. An upper bound: a
 * parser that expands less stays within it.
 */
export function entityTextBound(text: string, what = 'the XML body'): number {
  if (!/<!ENTITY/i.test(text)) return 0;
  const declared = declarations(text);
  if (declared.size === 0) return 0;
  const expanded = new Map<string, number>();
  const active = new Set<string>();

  const sizeOf = (name: string): number => {
    const known = expanded.get(name);
    if (known !== undefined) return known;
    const entity = declared.get(name)!; // only declared names are asked for
    if (entity.external) throw new EntityExpansionRefused(what, `the external entity "${name}" is never read`);
    if (active.has(name)) throw new EntityExpansionRefused(what, `the entity "${name}" refers to itself`);
    // Also keeps the recursion far from the stack's end on a chain of 100,000 entities.
    if (active.size >= ENTITY_DEPTH_LIMIT) throw new EntityExpansionRefused(what, `entities refer to entities more than ${ENTITY_DEPTH_LIMIT} deep (at "${name}")`);
    active.add(name);
    const size = entity.value.length + referencesIn(entity.value);
    active.delete(name);
    expanded.set(name, size);
    return size;
  };

  function referencesIn(value: string): number {
    let total = 0;
    for (const m of value.matchAll(REFERENCE)) if (declared.has(m[1]!)) total += sizeOf(m[1]!);
    return total;
  }

  return referencesIn(text);
}

/** Refuses `text` when its entity references may produce more than its budget; before parsing. */
export function checkXmlEntities(text: string, what = 'the XML body'): void {
  const budget = entityBudget(text.length);
  const bound = entityTextBound(text, what);
  if (bound > budget) {
    throw new EntityExpansionRefused(what, `its entity references would produce ${bound > Number.MAX_SAFE_INTEGER ? 'more than 2^53' : bound} characters, more than the ${budget} allowed for a document of ${text.length} characters`);
  }
}

/**
 * A counter for a parser's entity hook: adds what each reference produced and stops the
 * parse (by throwing) as soon as the total passes the budget, so the text is never built.
 */
export function entityCounter(documentLength: number, what = 'the XML body'): (name: string, produced: string) => void {
  const budget = entityBudget(documentLength);
  let total = 0;
  return (name, produced) => {
    // Character references and the predefined entities produce one character (unless redeclared).
    if (name.startsWith('#') || (PREDEFINED.has(name) && produced.length <= 1)) return;
    total += produced.length;
    if (total > budget) throw new EntityExpansionRefused(what, `its entity references produced more than the ${budget} characters allowed for a document of ${documentLength} characters`);
  };
}
