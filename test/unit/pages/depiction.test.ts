// RDKit's style attributes become presentation attributes, which a strict style-src allows.
import { expect } from 'chai';
import { presentationAttributes } from '../../../src/pages/depiction.ts';

describe('presentationAttributes', () => {
  const rows: Array<[string, string]> = [
    ["<rect style='opacity:1.0;fill:#FFFFFF;stroke:none' width='120.0'> </rect>", '<rect opacity="1.0" fill="#FFFFFF" stroke="none" width=\'120.0\'> </rect>'],
    ["<path d='M 1,2' style='fill:none;stroke-width:2.0px;stroke-linecap:butt;stroke-opacity:1;' />", '<path d=\'M 1,2\' fill="none" stroke-width="2.0px" stroke-linecap="butt" stroke-opacity="1" />'],
    ["<text style='font-size:40px;font-family:sans-serif;text-anchor:start;fill:#FF0000'>O</text>", '<text font-size="40px" font-family="sans-serif" text-anchor="start" fill="#FF0000">O</text>'],
    // A declaration that would not make a well-formed attribute is dropped.
    ["<path style='fill:#000;x:\"><script>' />", '<path fill="#000" />'],
    ['<svg width="1"></svg>', '<svg width="1"></svg>'],
  ];
  for (const [svg, expected] of rows) it(svg, () => expect(presentationAttributes(svg)).to.equal(expected));
});
