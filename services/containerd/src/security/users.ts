// Who a container's process is: the user and groups containerd puts in the
// OCI spec (upstream containerd oci.WithUser/WithUserID/WithUsername,
// WithAdditionalGIDs and the CRI's supplemental groups), resolved against the
// image's /etc/passwd and /etc/group; and `id`/`whoami` as the image's
// userland prints them (busybox, or GNU coreutils in Debian-based images).

export interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
}

export interface GroupEntry {
  name: string;
  gid: number;
  members: string[];
}

/** The process's credentials: uid, primary gid and the kernel's supplementary groups (sorted, as setgroups(2) keeps them). */
export interface Identity {
  uid: number;
  gid: number;
  groups: number[];
}

export function parsePasswd(text: string | undefined): PasswdEntry[] {
  return (text ?? '')
    .split('\n')
    .map((l) => l.split(':'))
    .filter((f) => f.length >= 4 && f[0] && /^\d+$/.test(f[2]!) && /^\d+$/.test(f[3]!))
    .map((f) => ({ name: f[0]!, uid: Number(f[2]), gid: Number(f[3]) }));
}

export function parseGroup(text: string | undefined): GroupEntry[] {
  return (text ?? '')
    .split('\n')
    .map((l) => l.split(':'))
    .filter((f) => f.length >= 3 && f[0] && /^\d+$/.test(f[2]!))
    .map((f) => ({ name: f[0]!, gid: Number(f[2]), members: (f[3] ?? '').split(',').filter(Boolean) }));
}

/** What a user spec (`name`, `uid`, `name:group`, `uid:gid`) could not resolve to (containerd's error at task creation). */
export class UserLookupError extends Error {
  override name = 'UserLookupError';
}

export interface UserRequest {
  /** run_as_username, or the image config's User when nothing else is set. */
  username?: string;
  /** run_as_user. */
  uid?: number;
  /** run_as_group. */
  gid?: number;
  /** The CRI's supplemental_groups (fsGroup, supplementalGroups). */
  supplementalGroups?: number[];
}

/**
 * The identity containerd gives the process: a uid from run_as_user, else
 * the user named by run_as_username or the image (a name is looked up in
 * /etc/passwd; `user:group` names the group too); the primary gid from
 * run_as_group, else the passwd entry's (0 when there is none); the
 * supplementary groups are the primary gid, the /etc/group groups that list
 * the user by name, and the CRI's supplemental groups.
 */
export function resolveIdentity(req: UserRequest, passwd: PasswdEntry[], group: GroupEntry[]): Identity {
  let uid: number;
  let gid: number | undefined;
  let entry: PasswdEntry | undefined;
  if (req.uid !== undefined) {
    uid = req.uid;
    entry = passwd.find((p) => p.uid === uid);
  } else {
    const [user = '', grp] = (req.username ?? '').split(':');
    if (user === '') uid = 0;
    else if (/^\d+$/.test(user)) uid = Number(user);
    else {
      entry = passwd.find((p) => p.name === user);
      if (!entry) throw new UserLookupError(`no users found`);
      uid = entry.uid;
    }
    entry ??= passwd.find((p) => p.uid === uid);
    if (grp !== undefined && grp !== '') {
      if (/^\d+$/.test(grp)) gid = Number(grp);
      else {
        const g = group.find((e) => e.name === grp);
        if (!g) throw new UserLookupError(`no groups found`);
        gid = g.gid;
      }
    }
  }
  const primary = req.gid ?? gid ?? entry?.gid ?? 0;
  const member = entry ? group.filter((g) => g.name !== entry.name && g.members.includes(entry.name)).map((g) => g.gid) : [];
  const groups = [...new Set([primary, ...member, ...(req.supplementalGroups ?? [])])].sort((a, b) => a - b);
  return { uid, gid: primary, groups };
}

export type Userland = 'busybox' | 'coreutils';

const userName = (uid: number, passwd: PasswdEntry[]) => passwd.find((p) => p.uid === uid)?.name;
const groupName = (gid: number, group: GroupEntry[]) => group.find((g) => g.gid === gid)?.name;
const named = (n: number, name: string | undefined) => (name === undefined ? String(n) : `${n}(${name})`);

interface Out {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** `id [-u|-g|-G] [-n] [-r] [USER]` as busybox or coreutils prints it. */
export function idText(args: string[], who: Identity, passwd: PasswdEntry[], group: GroupEntry[], userland: Userland): Out {
  const flags = new Set<string>();
  const operands: string[] = [];
  for (const a of args) {
    if (a === '--user') flags.add('u');
    else if (a === '--group') flags.add('g');
    else if (a === '--groups') flags.add('G');
    else if (a === '--name') flags.add('n');
    else if (a === '--real') flags.add('r');
    else if (a.startsWith('-') && a.length > 1) for (const l of a.slice(1)) flags.add(l);
    else operands.push(a);
  }
  const bad = [...flags].find((f) => !'ugGnrz'.includes(f));
  if (bad) {
    return userland === 'busybox'
      ? { stdout: '', stderr: `id: invalid option -- '${bad}'\n`, exitCode: 1 }
      : { stdout: '', stderr: `id: invalid option -- '${bad}'\nTry 'id --help' for more information.\n`, exitCode: 1 };
  }
  let id = who;
  if (operands[0] !== undefined) {
    const op = operands[0];
    const p = passwd.find((e) => e.name === op) ?? (/^\d+$/.test(op) ? passwd.find((e) => e.uid === Number(op)) : undefined);
    if (!p) return { stdout: '', stderr: userland === 'busybox' ? `id: unknown user ${op}\n` : `id: '${op}': no such user\n`, exitCode: 1 };
    id = resolveIdentity({ uid: p.uid }, passwd, group);
  }
  const unknown = (kind: 'user' | 'group', n: number) => ({ stdout: '', stderr: userland === 'busybox' ? `id: unknown ID ${n}\n` : `id: cannot find name for ${kind} ID ${n}\n`, exitCode: 1 }) as Out;
  if (flags.has('u') || flags.has('g')) {
    const n = flags.has('u') ? id.uid : id.gid;
    if (!flags.has('n')) return { stdout: `${n}\n`, stderr: '', exitCode: 0 };
    const name = flags.has('u') ? userName(n, passwd) : groupName(n, group);
    if (name === undefined) {
      // coreutils prints the number after its complaint; busybox only complains.
      const e = unknown(flags.has('u') ? 'user' : 'group', n);
      return userland === 'busybox' ? e : { ...e, stdout: `${n}\n` };
    }
    return { stdout: `${name}\n`, stderr: '', exitCode: 0 };
  }
  const list = listedGroups(id, userland);
  if (flags.has('G')) {
    if (!flags.has('n')) return { stdout: `${list.join(' ')}\n`, stderr: '', exitCode: 0 };
    return { stdout: `${list.map((g) => groupName(g, group) ?? String(g)).join(' ')}\n`, stderr: '', exitCode: 0 };
  }
  const line = `uid=${named(id.uid, userName(id.uid, passwd))} gid=${named(id.gid, groupName(id.gid, group))} groups=${list.map((g) => named(g, groupName(g, group))).join(',')}`;
  return { stdout: `${line}\n`, stderr: '', exitCode: 0 };
}

/** The groups `id` lists: busybox prints getgroups(2) (sorted); coreutils the primary gid first, then the others. */
function listedGroups(id: Identity, userland: Userland): number[] {
  if (userland === 'busybox') return id.groups.length ? id.groups : [id.gid];
  return [id.gid, ...id.groups.filter((g) => g !== id.gid)];
}

/** `whoami`: the effective user's name. */
export function whoamiText(who: Identity, passwd: PasswdEntry[], userland: Userland): Out {
  const name = userName(who.uid, passwd);
  if (name !== undefined) return { stdout: `${name}\n`, stderr: '', exitCode: 0 };
  return { stdout: '', stderr: userland === 'busybox' ? `whoami: unknown uid ${who.uid}\n` : `whoami: cannot find name for user ID ${who.uid}\n`, exitCode: 1 };
}
