// Algorithm parameters (SPEC §2.1 ot:Parameter): each has a name, a type, a scope, a
// typed default and bounds; posted values are checked here so a bad one answers 400
// naming the parameter, the value and the allowed range (STYLE §12).
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';

export type ParamType = 'boolean' | 'int' | 'float' | 'string' | 'list';
export type ParamValue = boolean | number | string | string[];

export interface ParamDef {
  name: string;
  type: ParamType;
  description: string;
  /** Absent means no default: the ot:paramValue is the empty string. */
  default?: ParamValue;
  mandatory?: boolean;
  min?: number;
  max?: number;
  /** True when `min` itself is not allowed, e.g. minimum support in (0,1]. */
  minExclusive?: boolean;
  /** True when `max` itself is not allowed, e.g. a share in (0,1). */
  maxExclusive?: boolean;
  /** A number outside [min, max] that is allowed too and switches the step off, e.g. folds=0. */
  off?: number;
  /** Allowed values of a string parameter. */
  choices?: readonly string[];
  /**
   * A bound the data sets (sizeLimits.ts): `measured`, at most the compounds with a value of
   * prediction_feature; `folds`, that or, when folds are stratified, the smallest class.
   */
  limitedBy?: 'measured' | 'folds';
}

export type ParamValues = Record<string, ParamValue>;

/** Human-readable allowed range of a parameter, used in error messages. */
export function allowedRange(p: ParamDef): string {
  if (p.choices) return `one of ${p.choices.join(', ')}`;
  if (p.type === 'boolean') return 'true or false';
  const kind = p.type === 'int' ? 'an integer' : 'a number';
  if (p.min === undefined && p.max === undefined) return kind;
  const lo = p.min === undefined ? '(-∞' : `${p.minExclusive ? '(' : '['}${p.min}`;
  const hi = p.max === undefined ? '∞)' : `${p.max}${p.maxExclusive ? ')' : ']'}`;
  return `${p.off === undefined ? '' : `${p.off} (off) or `}${kind} in ${lo},${hi}`;
}

function invalid(p: ParamDef, raw: string): BadRequest {
  return new BadRequest(`parameter ${p.name}=${JSON.stringify(raw)} is invalid: expected ${allowedRange(p)}`, {
    code: ERR.InvalidParameter,
  });
}

/** Parses one posted value of parameter `p`. */
export function parseParam(p: ParamDef, raws: readonly string[]): ParamValue {
  const raw = raws[0]?.trim() ?? '';
  switch (p.type) {
    case 'boolean':
      if (/^(true|1|yes|on)$/i.test(raw)) return true;
      if (/^(false|0|no|off)$/i.test(raw)) return false;
      throw invalid(p, raw);
    case 'int':
    case 'float': {
      const n = Number(raw);
      if (raw === '' || !Number.isFinite(n) || (p.type === 'int' && !Number.isInteger(n))) throw invalid(p, raw);
      if (n === p.off) return n;
      if (p.min !== undefined && (n < p.min || (p.minExclusive && n === p.min))) throw invalid(p, raw);
      if (p.max !== undefined && (n > p.max || (p.maxExclusive && n === p.max))) throw invalid(p, raw);
      return n;
    }
    case 'string':
      if (p.choices && !p.choices.includes(raw)) throw invalid(p, raw);
      return raw;
    case 'list': {
      const items = raws.flatMap((r) => r.split(/[\n\r]+|\s*,\s*(?![^[]*\])/)).map((s) => s.trim()).filter(Boolean);
      if (items.length === 0) throw invalid(p, raws.join(','));
      return items;
    }
  }
}

/** Typed text of a value as stored in ot:paramValue and hashed for parameterised URIs. */
export function formatParam(value: ParamValue): string {
  return Array.isArray(value) ? value.join('\n') : String(value);
}

/** Form fields of an apply request that are not algorithm parameters (SPEC §2.1, §1 rule 9). */
export const REQUEST_FIELDS = ['dataset_uri', 'prediction_feature', 'dataset_service', 'subjectid', 'feature_definition'] as const;

/**
 * The explicit parameters of a request: only those posted. When the names of every posted
 * field are given, one that is neither a parameter nor a request field answers 400 naming
 * it and listing the known ones: a misspelt parameter must not run with its default.
 */
export function readParams(defs: readonly ParamDef[], get: (name: string) => string[], posted?: readonly string[]): ParamValues {
  if (posted) {
    const known = new Set<string>([...defs.map((p) => p.name), ...REQUEST_FIELDS]);
    const unknown = posted.filter((n) => !known.has(n));
    if (unknown.length > 0) {
      const list = defs.map((p) => p.name).join(', ') || 'none';
      throw new BadRequest(`unknown parameter${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: this algorithm's parameters are ${list} (besides ${REQUEST_FIELDS.join(', ')})`, {
        code: ERR.InvalidParameter,
      });
    }
  }
  const out: ParamValues = {};
  for (const p of defs) {
    const raws = get(p.name);
    if (raws.length > 0) out[p.name] = parseParam(p, raws);
  }
  return out;
}

/** Explicit values over defaults; a mandatory parameter without a value is a 400. */
export function withDefaults(defs: readonly ParamDef[], explicit: ParamValues): ParamValues {
  const out: ParamValues = {};
  for (const p of defs) {
    const v = explicit[p.name] ?? p.default;
    if (v === undefined) {
      if (p.mandatory) throw new BadRequest(`parameter ${p.name} is mandatory: expected ${allowedRange(p)}`, { code: ERR.MissingParameter });
      continue;
    }
    out[p.name] = v;
  }
  return out;
}
