// Which write errors are a full disk or quota (RFC 4918 §11.5 507 Insufficient Storage).
/** Errors that mean "no room now" rather than "the disk is broken": writing may work later. */
export function isSpaceError(e: unknown): boolean {
  const code = (e as { code?: string } | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG';
}
