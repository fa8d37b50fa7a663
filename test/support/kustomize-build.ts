import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseAllDocuments, parse as parseYaml } from 'yaml';

/** A Kubernetes object as YAML holds it. */
export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; [k: string]: unknown }; [k: string]: unknown };

// The kustomization fields these manifests use, each built by kustomize's own rules; any other
// field is refused rather than ignored, so a manifest can never mean more than this renders.
const FIELDS = new Set(['apiVersion', 'kind', 'resources', 'components', 'configMapGenerator', 'generatorOptions', 'replicas', 'patches', 'images']);

interface Kustomization {
  resources?: string[];
  components?: string[];
  configMapGenerator?: { name: string; files: string[] }[];
  generatorOptions?: { disableNameSuffixHash?: boolean };
  replicas?: { name: string; count: number }[];
  patches?: { target: { kind: string; name: string }; patch: string }[];
  images?: { name: string; newName?: string; newTag?: string }[];
}

function readKustomization(dir: string): Kustomization {
  const file = join(dir, 'kustomization.yaml');
  if (!existsSync(file)) throw new Error(`${dir}: no kustomization.yaml`);
  const k = parseYaml(readFileSync(file, 'utf8')) as Kustomization & Record<string, unknown>;
  for (const key of Object.keys(k)) if (!FIELDS.has(key)) throw new Error(`${file}: ${key} is not a field this renderer builds`);
  return k;
}

function readObjects(file: string): K8sObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

/** RFC 6902 add, replace and remove at a JSON pointer (`-` appends to a list). */
function applyJsonPatch(target: unknown, ops: { op: string; path: string; value?: unknown }[]): void {
  for (const { op, path, value } of ops) {
    const keys = path
      .split('/')
      .slice(1)
      .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = keys.pop() as string;
    let at = target as Record<string, unknown>;
    for (const k of keys) {
      const next = (at as Record<string, unknown>)[k];
      if (typeof next !== 'object' || next === null) throw new Error(`patch ${op} ${path}: ${k} is not there`);
      at = next as Record<string, unknown>;
    }
    if (Array.isArray(at)) {
      const index = last === '-' ? at.length : Number(last);
      if (op === 'add') at.splice(index, 0, value);
      else if (op === 'replace') at[index] = value;
      else if (op === 'remove') at.splice(index, 1);
      else throw new Error(`patch: ${op} is not supported`);
    } else if (op === 'add' || op === 'replace') at[last] = value;
    else if (op === 'remove') delete at[last];
    else throw new Error(`patch: ${op} is not supported`);
  }
}

function build(dir: string, kind: 'Kustomization' | 'Component', objects: K8sObject[]): K8sObject[] {
  const k = readKustomization(dir);
  const out = kind === 'Component' ? objects : [];
  for (const entry of k.resources ?? []) {
    const path = resolve(dir, entry);
    out.push(...(statSync(path).isDirectory() ? build(path, 'Kustomization', []) : readObjects(path)));
  }
  for (const generator of k.configMapGenerator ?? []) {
    if (!k.generatorOptions?.disableNameSuffixHash) throw new Error(`${dir}: a name hash is not rendered here; set disableNameSuffixHash`);
    const data = Object.fromEntries(generator.files.map((f) => [basename(f), readFileSync(resolve(dir, f), 'utf8')]));
    out.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: generator.name }, data });
  }
  // components see what the kustomization has built so far, as kustomize applies them
  for (const entry of k.components ?? []) build(resolve(dir, entry), 'Component', out);
  for (const r of k.replicas ?? []) {
    const target = out.find((o) => o.metadata.name === r.name && ['Deployment', 'StatefulSet', 'ReplicaSet'].includes(o.kind));
    if (!target) throw new Error(`${dir}: replicas: no workload ${r.name}`);
    (target.spec as Record<string, unknown>).replicas = r.count;
  }
  for (const p of k.patches ?? []) {
    const target = out.find((o) => o.kind === p.target.kind && o.metadata.name === p.target.name);
    if (!target) throw new Error(`${dir}: patch: no ${p.target.kind} ${p.target.name}`);
    applyJsonPatch(target, parseYaml(p.patch) as { op: string; path: string; value?: unknown }[]);
  }
  for (const image of k.images ?? [])
    for (const o of out) {
      const containers = ((o.spec as { template?: { spec?: { containers?: { image: string }[] } } })?.template?.spec?.containers ?? []) as { image: string }[];
      for (const c of containers) {
        const [name] = c.image.split(':');
        if (name === image.name) c.image = `${image.newName ?? name}:${image.newTag ?? c.image.split(':')[1] ?? 'latest'}`;
      }
    }
  return out;
}

/** What `kustomize build <dir>` makes of the few features these manifests use. */
export function kustomizeBuild(dir: string): K8sObject[] {
  return build(resolve(dir), 'Kustomization', []);
}

export const repoPath = (...parts: string[]) => join(dirname(new URL(import.meta.url).pathname), '..', '..', ...parts);
