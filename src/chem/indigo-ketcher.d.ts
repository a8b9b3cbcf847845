// indigo-ketcher ships no types; src/chem/toolkits.ts describes the part we use.
declare module 'indigo-ketcher' {
  const init: () => Promise<unknown>;
  export default init;
}
