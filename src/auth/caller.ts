// The caller's identity as the auth middleware leaves it in ctx.state.
// Routes pass it on: into TaskMeta (a job acts with its creator's rights) and into remote
// calls (the token travels to the services we call).
import type Koa from 'koa';

export interface Caller {
  /** The authenticated user; undefined when auth is off or no token was sent. */
  owner?: string;
  /** The caller's token, as sent; passed on to remote services even when auth is off here. */
  subjectid?: string;
  /**
   * Whom the per-client job quota counts this request's jobs against (src/tasks/quota.ts):
   * the user when authenticated, else the address.
   */
  client: string;
}

export interface AuthState {
  user?: string;
  subjectid?: string;
}

export function callerOf(ctx: Koa.Context): Caller {
  const state = ctx.state as AuthState;
  const caller: Caller = { client: state.user ?? `address ${ctx.ip}` };
  if (state.user !== undefined) caller.owner = state.user;
  if (state.subjectid !== undefined) caller.subjectid = state.subjectid;
  return caller;
}
