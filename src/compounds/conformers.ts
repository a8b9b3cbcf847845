// Conformers of a compound (SPEC §2.3, §4.2): alternative (usually 3D) structures of the
// same molecule, each a file under the compound's directory and a graph of its own.
import { DataFactory } from 'n3';
import type * as RDF from '@rdfjs/types';
import type { Deps } from '../deps.ts';
import { BadRequest, InternalError } from '../errors.ts';
import { DC, ERR, OT, RDF as RDFNS, SVC, XSD } from '../rdf/vocab.ts';
import type { ParsedStructure } from '../chem/index.ts';
import type { WriteOp } from '../store/api.ts';
import { compoundUri } from './compounds.ts';
import { compoundRecord, conformerRecord, conformerRecords, conformersChanged, type CompoundRecord } from './compoundRecords.ts';
import { newStructurePath, removeStructureFiles, writeStructureFiles } from './compoundFiles.ts';
import { withCompoundLock } from './compoundLocks.ts';
import { compoundIndex } from './compoundIndex.ts';

const { quad, namedNode, literal } = DataFactory;

export const conformerUri = (compound: CompoundRecord, n: number): string => `${compound.uri}/conformer/${n}`;

function conformerQuads(compound: CompoundRecord, n: number, file: string, is3D: boolean): RDF.Quad[] {
  const k = namedNode(conformerUri(compound, n));
  return [
    quad(k, RDFNS.type, OT.Conformer),
    quad(k, OT.compound, namedNode(compound.uri)),
    quad(k, SVC.number, literal(String(n), XSD.integer)),
    quad(k, SVC.structureFile, literal(file)),
    quad(k, SVC.is3D, literal(String(is3D), XSD.boolean)),
    quad(k, DC.date, literal(new Date().toISOString(), XSD.dateTime)),
  ];
}

/** 400 unless `s` is the compound's molecule (a conformer of another molecule). */
export function checkSameMolecule(compound: CompoundRecord, s: ParsedStructure): void {
  const same = compound.inchiKey && s.inchiKey ? compound.inchiKey === s.inchiKey : compound.smiles === s.smiles;
  if (!same) {
    throw new BadRequest(`the structure is a different molecule (${s.smiles}, InChIKey ${s.inchiKey || 'none'}) than compound ${compound.uri} (${compound.smiles}, InChIKey ${compound.inchiKey || 'none'})`, {
      code: ERR.InvalidStructure,
    });
  }
}

/** Adds conformers (files first, then one commit); returns their URIs. */
export function addConformers(deps: Deps, id: number, structures: ReadonlyArray<{ molfile: string; is3D: boolean }>): Promise<string[]> {
  return withCompoundLock(compoundUri(deps, id), async () => {
    const compound = compoundRecord(deps, id);
    const existing = await conformerRecords(deps, compound);
    const last = compoundIndex(deps).lastConformer;
    let next = existing.reduce((max, c) => Math.max(max, c.number), last.get(id) ?? 0) + 1;
    const added = structures.map((s) => ({ n: next++, file: newStructurePath(id, 'conformer'), ...s }));
    last.set(id, next - 1);
    // Before the write: a list read meanwhile goes to the store, not to "none".
    compoundIndex(deps).withConformers?.add(id);
    await writeStructureFiles(deps, added.map((a) => ({ rel: a.file, text: a.molfile })));
    const ops: WriteOp[] = added.map((a) => ({ op: 'replace', graph: conformerUri(compound, a.n), quads: conformerQuads(compound, a.n, a.file, a.is3D) }));
    try {
      await deps.store.commit(ops);
    } catch (e) {
      await removeStructureFiles(deps, added.map((a) => a.file));
      throw e;
    }
    conformersChanged(deps, id);
    return added.map((a) => conformerUri(compound, a.n));
  });
}

export function addConformer(deps: Deps, id: number, s: ParsedStructure): Promise<string> {
  checkSameMolecule(compoundRecord(deps, id), s);
  return addConformers(deps, id, [{ molfile: s.molfile, is3D: s.is3D === true }]).then(([uri]) => {
    if (uri === undefined) throw new InternalError('storing one conformer gave no URI');
    return uri;
  });
}

export function replaceConformer(deps: Deps, id: number, n: number, s: ParsedStructure): Promise<string> {
  return withCompoundLock(compoundUri(deps, id), async () => {
    const compound = compoundRecord(deps, id);
    const old = await conformerRecord(deps, compound, n);
    checkSameMolecule(compound, s);
    const file = newStructurePath(id, 'conformer');
    await writeStructureFiles(deps, [{ rel: file, text: s.molfile }]);
    try {
      await deps.store.replaceGraph(old.uri, conformerQuads(compound, n, file, s.is3D === true));
    } catch (e) {
      await removeStructureFiles(deps, [file]);
      throw e;
    }
    conformersChanged(deps, id);
    await removeStructureFiles(deps, [old.file]);
    return old.uri;
  });
}

/** Deletes conformer `n`, or every conformer when `n` is undefined. */
export function deleteConformers(deps: Deps, id: number, n?: number): Promise<void> {
  return withCompoundLock(compoundUri(deps, id), async () => {
    const compound = compoundRecord(deps, id);
    const gone = n === undefined ? await conformerRecords(deps, compound) : [await conformerRecord(deps, compound, n)];
    if (gone.length) await deps.store.commit(gone.map((c) => ({ op: 'drop', graph: c.uri })));
    conformersChanged(deps, id);
    await removeStructureFiles(deps, gone.map((c) => c.file));
  });
}

/** RDF of a conformer: its type, its compound, and the compound's number. */
export function conformerRepresentation(compound: CompoundRecord, n: number): RDF.Quad[] {
  const k = namedNode(conformerUri(compound, n));
  return [quad(k, RDFNS.type, OT.Conformer), quad(k, OT.compound, namedNode(compound.uri)), quad(namedNode(compound.uri), RDFNS.type, OT.Compound)];
}
