// Query parameters that carry credentials: SPEC §5's subjectid and the usual names of tokens
// and passwords. A link the service writes (a Link header, a page's sort and paging links)
// is built from the request's URL, and must not hand the caller's token on to whoever
// follows, bookmarks or logs it.
export const TOKEN_PARAMS = /^(subjectid|tokenid|token\.id|token|password|passwd|pwd|api_?key|access_token)$/i;

/** Whether a query or form field of this name carries a credential. */
export const isTokenParam = (name: string): boolean => TOKEN_PARAMS.test(name);
