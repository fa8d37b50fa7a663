import { readFileSync } from 'node:fs';
import { PrometheusRule, ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Service, ServiceAccount } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ProxySettingsSchema } from '../../src/config/settings-schema.js';
import { type K8sObject, kustomizeBuild, repoPath } from '../support/kustomize-build.js';
import { type ProxyOnEmulator, startProxyOnEmulator } from '../support/proxy-harness.js';
import { call } from '../support/emulator-harness.js';

// every kind the manifests hold, checked against its Kubernetes (or Prometheus Operator) schema
const MODELS: Record<string, new (o: never) => { validate(): void }> = {
  'v1/ServiceAccount': ServiceAccount,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
};

type Env = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };
type Container = {
  ports: { name: string; containerPort: number }[];
  env: Env[];
  readinessProbe: { httpGet: { path: string; port: string } };
  livenessProbe: { httpGet: { path: string; port: string } };
  volumeMounts: { name: string; mountPath: string }[];
  securityContext: Record<string, unknown>;
  resources: { requests: Record<string, string> };
  image: string;
};
type PodSpec = {
  containers: Container[];
  volumes: { name: string; configMap?: { name: string }; secret?: { secretName: string; items: { key: string; path: string }[] }; emptyDir?: object }[];
  terminationGracePeriodSeconds: number;
  securityContext: Record<string, unknown>;
  automountServiceAccountToken: boolean;
  serviceAccountName: string;
};

const of = (objects: K8sObject[], kind: string, name?: string) => {
  const found = objects.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  if (!found) throw new Error(`no ${kind} ${name ?? ''}`);
  return found as K8sObject & { spec: any; data?: Record<string, string> };
};
const podOf = (objects: K8sObject[]) => of(objects, 'Deployment').spec.template.spec as PodSpec;
const envOf = (c: Container, name: string) => c.env.find((e) => e.name === name);

/** The facts that must hold of a rendering, each said as what is wrong; [] when none is. */
function problems(objects: K8sObject[]): string[] {
  const out: string[] = [];
  for (const o of objects) {
    const Model = MODELS[`${o.apiVersion}/${o.kind}`];
    if (!Model) out.push(`${o.apiVersion}/${o.kind} has no schema here`);
    else
      try {
        new Model(o as never).validate();
      } catch (err) {
        out.push(`${o.kind} ${o.metadata.name}: ${(err as Error).message.slice(0, 300)}`);
      }
  }
  const pod = podOf(objects);
  const c = pod.containers[0] as Container;
  const settings = new Set(Object.keys(ProxySettingsSchema.shape));
  for (const e of c.env) if (!settings.has(e.name)) out.push(`env ${e.name} is not a setting`);
  const port = (name: string) => c.ports.find((p) => p.name === name)?.containerPort;
  // the ports the proxy listens on, as this environment sets them
  if (port('http') !== Number(envOf(c, 'PORT')?.value)) out.push('the http port is not PORT');
  if (port('admin') !== Number(envOf(c, 'ADMIN_PORT')?.value)) out.push('the admin port is not ADMIN_PORT');
  if (c.readinessProbe.httpGet.path !== '/readyz' || c.readinessProbe.httpGet.port !== 'http') out.push('readiness is not /readyz on http');
  if (c.livenessProbe.httpGet.path !== '/healthz' || c.livenessProbe.httpGet.port !== 'http') out.push('liveness is not /healthz on http');
  const timeoutMs = Number(envOf(c, 'SHUTDOWN_TIMEOUT_MS')?.value ?? ProxySettingsSchema.shape.SHUTDOWN_TIMEOUT_MS.parse(undefined));
  if (!(pod.terminationGracePeriodSeconds * 1000 > timeoutMs)) out.push(`terminationGracePeriodSeconds is not above SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms)`);
  // a file setting names a file of a mounted volume
  const mountedFile = (setting: string) => {
    const path = envOf(c, setting)?.value ?? '';
    const mount = c.volumeMounts.find((m) => path.startsWith(`${m.mountPath}/`));
    const volume = pod.volumes.find((v) => v.name === mount?.name);
    const file = path.slice((mount?.mountPath.length ?? 0) + 1);
    return { mount, volume, file };
  };
  const rollout = mountedFile('ROLLOUT_FILE');
  const map = rollout.volume?.configMap ? objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === rollout.volume?.configMap?.name) : undefined;
  if (!(map as { data?: Record<string, string> } | undefined)?.data?.[rollout.file]) out.push('ROLLOUT_FILE is not a file of a mounted ConfigMap');
  const operators = mountedFile('ADMIN_TOKENS_FILE');
  if (!operators.volume?.secret?.items.some((i) => i.path === operators.file)) out.push('ADMIN_TOKENS_FILE is not a file of the mounted Secret');
  // hardened, and the image runs in it as it is
  const sc = c.securityContext as { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; capabilities?: { drop?: string[] } };
  const podSc = pod.securityContext as { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type?: string } };
  if (sc.allowPrivilegeEscalation !== false || sc.readOnlyRootFilesystem !== true || !sc.capabilities?.drop?.includes('ALL'))
    out.push('the container is not hardened');
  if (podSc.runAsNonRoot !== true || podSc.seccompProfile?.type !== 'RuntimeDefault') out.push('the pod is not hardened');
  if (pod.automountServiceAccountToken !== false || of(objects, 'ServiceAccount').automountServiceAccountToken !== false)
    out.push('a service account token is mounted');
  const writable = c.volumeMounts.filter((m) => pod.volumes.find((v) => v.name === m.name)?.emptyDir);
  if (writable.map((m) => m.mountPath).join() !== '/tmp') out.push('something but /tmp is writable');
  if (!c.resources.requests.cpu || !c.resources.requests.memory) out.push('no resource requests');
  // the Services reach the pods on the ports they name
  const labels = of(objects, 'Deployment').spec.template.metadata.labels as Record<string, string>;
  for (const s of objects.filter((o) => o.kind === 'Service') as unknown as { metadata: { name: string }; spec: any }[]) {
    for (const [k, v] of Object.entries(s.spec.selector as Record<string, string>)) if (labels[k] !== v) out.push(`Service ${s.metadata.name} selects no pod`);
    for (const p of s.spec.ports as { targetPort: string }[])
      if (port(p.targetPort) === undefined) out.push(`Service ${s.metadata.name}: no port ${p.targetPort}`);
  }
  return out;
}

describe('the Kubernetes manifests (deploy/kubernetes), rendered and checked without a cluster', () => {
  const base = kustomizeBuild(repoPath('deploy/kubernetes/base'));
  const fleet = kustomizeBuild(repoPath('deploy/kubernetes/overlays/fleet'));

  it('the base: every object valid against its schema, and the facts that matter hold', () => {
    expect(base.map((o) => o.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'PodDisruptionBudget', 'Service', 'Service', 'ServiceAccount']);
    expect(problems(base)).toEqual([]);
    const service = of(base, 'Service', 'v2proxy').spec.ports[0];
    expect([service.port, service.appProtocol]).toEqual([8080, 'kubernetes.io/h2c']);
    // the rollout file the ConfigMap carries is one the proxy takes
    expect(parseYaml(of(base, 'ConfigMap').data?.['rollout.yaml'] ?? '')).toMatchObject({ killSwitch: false, routes: [] });
  });

  it('the fleet overlay: three replicas over Redis (its URL from the Secret), an autoscaler and the monitoring objects', () => {
    expect(problems(fleet)).toEqual([]);
    expect(of(fleet, 'Deployment').spec.replicas).toBe(3);
    const c = podOf(fleet).containers[0] as Container;
    expect(envOf(c, 'REDIS_URL')?.valueFrom?.secretKeyRef).toEqual({ name: 'v2proxy', key: 'redis-url' });
    expect(envOf(c, 'META_STORE')?.value).toBe('redis');
    expect(of(fleet, 'HorizontalPodAutoscaler').spec).toMatchObject({ minReplicas: 3, scaleTargetRef: { kind: 'Deployment', name: 'v2proxy' } });
    // the ServiceMonitor scrapes the admin Service's port, where /metrics is
    const monitor = of(fleet, 'ServiceMonitor').spec;
    const admin = of(fleet, 'Service', 'v2proxy-admin');
    expect(admin.metadata.labels).toMatchObject(monitor.selector.matchLabels);
    expect(monitor.endpoints[0]).toMatchObject({ port: admin.spec.ports[0].name, path: '/metrics' });
    // the PrometheusRule holds the plain rules file's groups
    const plain = parseYaml(readFileSync(repoPath('deploy/prometheus/v2proxy-rules.yaml'), 'utf8'));
    expect(of(fleet, 'PrometheusRule').spec).toEqual(plain);
    // the base is left as it was
    expect(of(base, 'Deployment').spec.replicas).toBe(1);
  });

  it('the checks can fail: a broken rendering is refused, each fault named', () => {
    const broken = structuredClone(base);
    const pod = podOf(broken);
    const c = pod.containers[0] as Container;
    pod.terminationGracePeriodSeconds = 20;
    c.env.push({ name: 'NOT_A_SETTING', value: 'x' });
    (envOf(c, 'ROLLOUT_FILE') as Env).value = '/etc/v2proxy/elsewhere/rollout.yaml';
    c.readinessProbe.httpGet.path = '/healthz';
    (c.securityContext as { readOnlyRootFilesystem: boolean }).readOnlyRootFilesystem = false;
    (c as unknown as { ports: unknown }).ports = [{ name: 'http', containerPort: 'eighty' }, ...c.ports.slice(1)];
    expect(problems(broken)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Deployment v2proxy: /),
        'env NOT_A_SETTING is not a setting',
        'the http port is not PORT',
        'readiness is not /readyz on http',
        'terminationGracePeriodSeconds is not above SHUTDOWN_TIMEOUT_MS (25000 ms)',
        'ROLLOUT_FILE is not a file of a mounted ConfigMap',
        'the container is not hardened',
      ]),
    );
  });

  describe('on a running proxy with the manifest’s environment', () => {
    let env: ProxyOnEmulator;
    it('the probes’ paths answer as the manifests expect: 200 when ready and alive', async () => {
      const c = podOf(base).containers[0] as Container;
      env = await startProxyOnEmulator();
      try {
        expect((await call(env.proxy.url, 'GET', c.readinessProbe.httpGet.path)).status).toBe(200);
        expect((await call(env.proxy.url, 'GET', c.livenessProbe.httpGet.path)).status).toBe(200);
      } finally {
        await env.close();
      }
    });
  });
});
