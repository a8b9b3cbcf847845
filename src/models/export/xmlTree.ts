// A small XML element tree and its writer: element and attribute names are the code's own
// (checked as XML names), every text and attribute value is escaped on the way out, so
// no text from the store can become markup.
import { InternalError } from '../../errors.ts';
import { escapeXml } from '../../rdf/rdfxml.ts';

export type XmlChild = XmlElement | string;

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlChild[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** An element; attributes whose value is undefined are left out. */
export function el(name: string, attrs: Record<string, string | number | undefined> = {}, ...children: Array<XmlChild | undefined | false>): XmlElement {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) kept[k] = String(v);
  return { name, attrs: kept, children: children.filter((c): c is XmlChild => c !== undefined && c !== false) };
}

function checkName(name: string): string {
  if (!NAME.test(name)) throw new InternalError(`not an XML name: ${JSON.stringify(name)}`);
  return name;
}

function write(e: XmlElement, indent: string, out: string[]): void {
  const attrs = Object.entries(e.attrs).map(([k, v]) => ` ${checkName(k)}="${escapeXml(v, true)}"`).join('');
  const name = checkName(e.name);
  if (e.children.length === 0) {
    out.push(`${indent}<${name}${attrs}/>`);
    return;
  }
  // Mixed or text content stays on one line: indentation would become part of the text.
  if (e.children.some((c) => typeof c === 'string')) {
    const inner: string[] = [];
    for (const c of e.children) {
      if (typeof c === 'string') inner.push(escapeXml(c));
      else { const sub: string[] = []; write(c, '', sub); inner.push(sub.join('')); }
    }
    out.push(`${indent}<${name}${attrs}>${inner.join('')}</${name}>`);
    return;
  }
  out.push(`${indent}<${name}${attrs}>`);
  for (const c of e.children) write(c as XmlElement, indent + '  ', out);
  out.push(`${indent}</${name}>`);
}

export function toXml(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  write(root, '', out);
  return out.join('\n') + '\n';
}
