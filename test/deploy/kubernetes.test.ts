/**
 * deploy/k8s/portal.yaml: every object valid against the Kubernetes API schemas (scripts/k8s-validate.mjs, with
 * kubernetes-models), and the rules the portal needs: probes and /metrics on the internal port, which neither the
 * public Service nor the Ingress names; a preStop sleep matching SHUTDOWN_DELAY_MS and a grace period that fits the
 * drain; requests from the measured RSS plus the L1 bound; a PodDisruptionBudget and an autoscaler on the same pods;
 * a configuration the server accepts.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../server/platform/config';

const ROOT = path.resolve(__dirname, '../..');
const MANIFEST = path.join(ROOT, 'deploy/k8s/portal.yaml');

/** Peak resident memory with L1 full and evicting, the highest of three `npm run soak -- --fill-l1` runs (docs/operations.md "Kubernetes"). */
const MEASURED_PEAK_RSS_MIB = 517;
/** The least headroom the limit keeps over that peak: what the garbage collector's swings need (the 10-minute soak). */
const LIMIT_HEADROOM = 1.25;

// The manifests as plain data: the schema check is the validator's, these are the portal's own rules.
/* eslint-disable @typescript-eslint/no-explicit-any */
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> };
const objects = parseAllDocuments(readFileSync(MANIFEST, 'utf8')).map((document) => document.toJS() as K8sObject);
const find = (kind: string, name = 'portal'): K8sObject => {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in ${MANIFEST}`);
  return found;
};

function validate(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'scripts/k8s-validate.mjs'), file], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** kubernetes-types' module of an apiVersion: `v1` → core/v1, `networking.k8s.io/v1` → networking/v1. */
function typesModule(apiVersion: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['core', apiVersion];
  return `kubernetes-types/${group!.split('.')[0]}/${version}`;
}

/**
 * Each object of a manifest as an object literal that `satisfies` its kubernetes-types interface, compiled by tsc:
 * excess-property checks refuse any field the type does not have, at any depth. The file goes under dist/run (the
 * project's node_modules resolve from there; the project's tsconfig does not include it).
 */
function typeCheck(text: string, label: string): Promise<{ code: number; output: string }> {
  const documents = parseAllDocuments(text).map((document) => document.toJS() as K8sObject);
  const imports = documents.map((object, index) => `import type { ${object.kind} as T${index} } from '${typesModule(object.apiVersion)}';`);
  const literals = documents.map((object, index) => `export const o${index} = ${JSON.stringify(object, null, 2)} satisfies T${index};`);
  const file = path.join(ROOT, 'dist/run', `k8s-types-${process.pid}-${label}.ts`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, [...imports, ...literals].join('\n'));
  const args = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'preserve', '--moduleResolution', 'bundler', '--target', 'es2022', file];
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      rmSync(file, { force: true });
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr });
    });
  });
}

const config = find('ConfigMap').data!;
const deployment = find('Deployment');
const pod = deployment.spec.template.spec;
const container = pod.containers[0];

describe('deploy/k8s/portal.yaml', () => {
  it('is valid against the Kubernetes API schemas, and a broken copy is not (so the check can fail)', async () => {
    const good = await validate(MANIFEST);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    expect(
      good.stdout
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('ok ')),
    ).toHaveLength(objects.length);
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-'));
    const cases: Array<[string, (text: string) => string, RegExp]> = [
      [
        'an integer field given a word',
        (text) => text.replace('maxReplicas: 10', 'maxReplicas: ten'),
        /HorizontalPodAutoscaler portal: .*maxReplicas must be integer/,
      ],
      [
        'a kind that does not exist',
        (text) => text.replace('kind: PodDisruptionBudget', 'kind: PodDisruptionBudgit'),
        /PodDisruptionBudgit is not a Kubernetes API kind/,
      ],
      [
        'a required field missing',
        (text) => text.replace('        - name: portal\n          image: ', '        - image: '),
        /Deployment portal: .*containers\/0 must have required property name/,
      ],
    ];
    for (const [label, breakIt, message] of cases) {
      const file = path.join(dir, `${label.replace(/\W+/g, '-')}.yaml`);
      writeFileSync(file, breakIt(readFileSync(MANIFEST, 'utf8')));
      const bad = await validate(file);
      expect([label, bad.code]).toEqual([label, 1]);
      expect(bad.stderr).toMatch(message);
    }
  }, 60_000);

  it('names only fields Kubernetes has: each object type-checked against kubernetes-types, a misspelt copy refused', async () => {
    const good = await typeCheck(readFileSync(MANIFEST, 'utf8'), 'good');
    expect(good.output).toBe('');
    expect(good.code).toBe(0);
    // The schemas above accept an unknown field (the API server drops it with a warning): the types do not.
    const misspelt = await typeCheck(readFileSync(MANIFEST, 'utf8').replace('            periodSeconds: 10', '            periodSecond: 10'), 'misspelt');
    expect(misspelt.code).not.toBe(0);
    expect(misspelt.output).toMatch(/known properties, and '"periodSecond"' does not exist in type 'Probe'/);
  }, 120_000);

  it('probes and scrapes on the internal port, which neither the public Service nor the Ingress exposes', () => {
    const ports = Object.fromEntries(container.ports.map((port: { name: string; containerPort: number }) => [port.name, port.containerPort]));
    expect(ports).toEqual({ http: Number(config.PORT), internal: Number(config.INTERNAL_PORT) });
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) expect([probe, container[probe].httpGet.port]).toEqual([probe, 'internal']);
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(deployment.spec.template.metadata.annotations['prometheus.io/port']).toBe(config.INTERNAL_PORT);
    expect(find('Service').spec.ports.map((port: { targetPort: string }) => port.targetPort)).toEqual(['http']);
    expect(find('Service', 'portal-internal').spec.ports.map((port: { targetPort: string }) => port.targetPort)).toEqual(['internal']);
    // A purge made while Redis is away reaches every pod: PEER_URLS names the headless Service (one address a pod)
    // at the internal port.
    const internal = find('Service', 'portal-internal').spec;
    expect(internal.clusterIP).toBe('None');
    expect(find('ConfigMap').data!.PEER_URLS).toBe(`http://portal-internal:${internal.ports[0].port}`);
    const backends = find('Ingress').spec.rules.flatMap((rule: any) => rule.http.paths.map((entry: any) => entry.backend.service));
    expect(backends.length).toBeGreaterThan(0);
    for (const backend of backends) expect(backend).toEqual({ name: 'portal', port: { name: 'http' } });
  });

  it('drains within the grace period: preStop sleep = SHUTDOWN_DELAY_MS, then at most SHUTDOWN_TIMEOUT_MS', () => {
    const command: string[] = container.lifecycle.preStop.exec.command;
    expect(command[0]).toBe('sleep');
    const sleepSeconds = Number(command[1]);
    expect(sleepSeconds * 1000).toBe(Number(config.SHUTDOWN_DELAY_MS));
    const needed = sleepSeconds + Number(config.SHUTDOWN_DELAY_MS) / 1000 + Number(config.SHUTDOWN_TIMEOUT_MS) / 1000;
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(needed);
    expect(deployment.spec.strategy.rollingUpdate).toEqual({ maxUnavailable: 0, maxSurge: 1 });
  });

  it('asks for the measured peak with L1 full, limits with headroom over it, and runs as the image’s unprivileged user on a read-only root', () => {
    const mebibytes = (quantity: string) => Number(/^(\d+)Mi$/.exec(quantity)?.[1]);
    const request = mebibytes(container.resources.requests.memory);
    // Measured with the manifest's own L1 bound: a larger L1 would need a new measurement.
    expect(Number(config.L1_CACHE_MAX_MB)).toBe(128);
    expect(request).toBeGreaterThanOrEqual(MEASURED_PEAK_RSS_MIB);
    expect(mebibytes(container.resources.limits.memory)).toBeGreaterThanOrEqual(MEASURED_PEAK_RSS_MIB * LIMIT_HEADROOM);
    expect(container.resources.requests.cpu).toBeDefined(); // the autoscaler's utilisation is of the request
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')).toMatch(/^USER node$/m); // uid 1000 in the node image
  });

  it('keeps pods through disruptions and scales the same Deployment', () => {
    const labels = deployment.spec.template.metadata.labels;
    expect(deployment.spec.selector.matchLabels).toEqual(labels);
    expect(find('PodDisruptionBudget').spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: labels } });
    expect(find('Service').spec.selector).toEqual(labels);
    const hpa = find('HorizontalPodAutoscaler').spec;
    expect(hpa.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name });
    expect(hpa.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.minReplicas).toBeLessThanOrEqual(deployment.spec.replicas);
  });

  it('configures the portal as it accepts (the Secret’s values as an operator sets them)', () => {
    const secret = {
      REDIS_URL: 'redis://:a1b2c3d4e5f60718@redis:6379/0',
      SESSION_REDIS_URL: 'redis://:a1b2c3d4e5f60718@redis-sessions:6379/0',
      INTERNAL_TOKEN: 'an-internal-token-of-the-cluster',
      PURGE_SECRET: 'a-publish-hook-secret-shared-with-the-cms',
      INTERNAL_URL: 'http://10.1.2.3:9090',
    };
    const loaded = loadConfig({ ...config, ...secret });
    expect(loaded).toMatchObject({ INTERNAL_PORT: 9090, TRUST_PROXY: 1, SHUTDOWN_DELAY_MS: 5000, PURGE_SECRET: secret.PURGE_SECRET });
    expect(container.envFrom).toEqual([{ configMapRef: { name: 'portal' } }]);
    // With an edge, its two settings as well.
    const edge = { EDGE_PURGE_URLS: 'http://varnish:6081', EDGE_PURGE_TOKEN: 'an-edge-purge-token-0123' };
    expect(loadConfig({ ...config, ...secret, ...edge })).toMatchObject({ EDGE_PURGE_URLS: ['http://varnish:6081'] });
  });

  it('reads the Secret key by key: the publish hook’s required, the edge’s optional, the keys the docs create', async () => {
    const validated = await validate(MANIFEST);
    const required = ['INTERNAL_TOKEN', 'PURGE_SECRET', 'REDIS_URL', 'SESSION_REDIS_URL'];
    const optional = ['EDGE_PURGE_TOKEN', 'EDGE_PURGE_URLS', 'PREVIEW_SECRET'];
    expect(validated.stdout).toContain(`secret portal-secrets: required ${required.join(', ')}; optional ${optional.join(', ')}\n`);
    // Each one under its own name, so the variable is the key.
    const fromSecret = container.env.filter((variable: any) => variable.valueFrom?.secretKeyRef);
    const refs = Object.fromEntries(fromSecret.map((variable: any) => [variable.name, variable.valueFrom.secretKeyRef]));
    const expected = [...required, ...optional].map((key) => [key, { name: 'portal-secrets', key, ...(optional.includes(key) ? { optional: true } : {}) }]);
    expect(refs).toEqual(Object.fromEntries(expected));
    // docs/operations.md's `kubectl create secret` creates exactly these keys.
    const lines = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8').split('\n');
    const start = lines.findIndex((line) => line.startsWith('kubectl -n news create secret generic portal-secrets'));
    expect(start).toBeGreaterThan(0);
    let end = start;
    while (lines[end]!.endsWith('\\')) end += 1;
    const created = [
      ...lines
        .slice(start, end + 1)
        .join('\n')
        .matchAll(/--from-literal=(\w+)=/g),
    ].map((match) => match[1]!);
    expect(created.sort()).toEqual([...required, ...optional].sort());
    // A copy of the manifest without the publish hook's key is named by the check (so it can fail).
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-'));
    const without = path.join(dir, 'without-purge-secret.yaml');
    writeFileSync(
      without,
      readFileSync(MANIFEST, 'utf8').replace(
        /\n {12}- name: PURGE_SECRET\n {14}valueFrom: \{ secretKeyRef: \{ name: portal-secrets, key: PURGE_SECRET \} \}/,
        '',
      ),
    );
    expect((await validate(without)).stdout).toContain('secret portal-secrets: required INTERNAL_TOKEN, REDIS_URL, SESSION_REDIS_URL; optional');
  }, 60_000);
});
