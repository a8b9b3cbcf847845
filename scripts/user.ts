// npm run user -- add NAME | remove NAME | list | add-group NAME GROUP | remove-group NAME GROUP [--data-dir DIR]
// Manages the users of AUTH_MODE=local in DATA_DIR/users.json. The password
// of `add` is read from standard input (first line), so it never shows in a process list
// or shell history: `printf '%s\n' 'secret' | npm run user -- add alice`. Groups are
// what AUTH_READ=owner grants to `group:NAME` reach.
import { existsSync } from 'node:fs';
import { loadConfig } from '../src/config.ts';
import { UserFile } from '../src/auth/users.ts';

const USAGE = 'usage: npm run user -- add NAME | remove NAME | list | add-group NAME GROUP | remove-group NAME GROUP   (options: --data-dir DIR; password of add on standard input)';

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('password (input is shown; pipe it in to hide it): ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (process.stdin.isTTY && chunk.includes(10)) break;
  }
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0]!; // split gives at least one line
}

async function main(argv: string[]): Promise<number> {
  const positional: string[] = [];
  const flags: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (arg.startsWith('--')) {
      flags.push(arg);
      if (!arg.includes('=') && next !== undefined && !next.startsWith('--')) {
        flags.push(next);
        i++;
      }
    } else positional.push(arg);
  }
  const [command, name, group] = positional;
  const users = new UserFile(loadConfig(flags, process.env).dataDir);
  if (command === 'list' && positional.length === 1) {
    // An empty list would read as "no users" when the directory is simply the wrong one.
    if (!existsSync(users.file)) {
      console.error(`no user file at ${users.file}: no users were added with this --data-dir (or DATA_DIR)`);
      return 1;
    }
    for (const user of users.list()) console.log([user, ...users.groupsOf(user)].join(' '));
    return 0;
  }
  if (command === 'add' && name && positional.length === 2) {
    const isNew = await users.add(name, await readPassword());
    console.log(`${isNew ? 'added' : 'changed the password of'} ${name} in ${users.file}`);
    return 0;
  }
  if (command === 'remove' && name && positional.length === 2) {
    if (!users.remove(name)) {
      console.error(`no user ${name} in ${users.file}`);
      return 1;
    }
    console.log(`removed ${name}; its tokens are no longer valid`);
    return 0;
  }
  if ((command === 'add-group' || command === 'remove-group') && name && group && positional.length === 3) {
    if (!users.setGroup(name, group, command === 'add-group')) {
      console.error(`no user ${name} in ${users.file}`);
      return 1;
    }
    console.log(`${name} is ${command === 'add-group' ? 'now' : 'no longer'} in group ${group}`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (e: Error) => {
  console.error(e.message);
  process.exit(1);
});
