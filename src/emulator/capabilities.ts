import { createHash } from 'node:crypto';

const CRUD = ['create', 'update', 'list', 'delete'] as const;

// v1 capability names (the enum's friendly `(name)` option) of the resources the emulator serves.
const FAMILIES: Record<string, readonly string[]> = {
  groups: CRUD,
  identity: CRUD,
  roles: CRUD,
  role_bindings: CRUD,
  identity_providers: CRUD,
  account_associations: CRUD,
  group_invites: ['create', 'list', 'delete'],
  repo: CRUD,
  tag: CRUD,
  manifest: CRUD,
  advisories: [...CRUD, 'approve'],
};

export const ALL_CAPABILITIES: readonly string[] = [
  ...Object.entries(FAMILIES).flatMap(([family, verbs]) => verbs.map((v) => `${family}.${v}`)),
  'identity_providers.scim.manage',
];

const KNOWN = new Set(ALL_CAPABILITIES);

export function isCapability(name: string): boolean {
  return KNOWN.has(name);
}

const LIST = ALL_CAPABILITIES.filter((c) => c.endsWith('.list'));
const EDIT_FAMILIES = ['groups', 'identity', 'repo', 'tag', 'manifest', 'advisories'];
const EDIT = ALL_CAPABILITIES.filter((c) => EDIT_FAMILIES.some((f) => c.startsWith(`${f}.`)) && !c.endsWith('.approve'));

export interface BuiltInRole {
  id: string;
  name: string;
  description: string;
  capabilities: string[];
}

// Built-in roles live at the root; their uids are derived from the name so they are the same on every run.
function builtIn(name: string, description: string, capabilities: readonly string[]): BuiltInRole {
  const id = createHash('sha1').update(`v2proxy-emulator/builtin-role/${name}`).digest('hex');
  return { id, name, description, capabilities: [...new Set(capabilities)].sort() };
}

export const BUILT_IN_ROLES: readonly BuiltInRole[] = [
  builtIn('viewer', 'Viewer Role (built-in)', LIST),
  builtIn('editor', 'Editor Role (built-in)', [...LIST, ...EDIT]),
  builtIn('owner', 'Owner Role (built-in)', ALL_CAPABILITIES),
];
