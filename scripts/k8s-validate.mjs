#!/usr/bin/env node
// `node scripts/k8s-validate.mjs <file.yaml>…`: every document of the Kubernetes manifests checked against the
// Kubernetes API schemas (kubernetes-models: the OpenAPI schemas of the API server, compiled; types, required
// fields, enums, formats such as int32 and quantities). Prints one line per document, then one per Secret the
// workloads read key by key (`secret <name>: required A, B; optional C`: what an operator must create), and each
// problem with the file, the object and the field; exits 1 on any problem, 2 on usage.
// test/deploy/kubernetes.test.ts runs it.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

/** kubernetes-models' module of an apiVersion and kind: `v1` → v1/Kind, `apps/v1` → apps/v1/Kind. */
function modelPath(apiVersion, kind) {
  return `kubernetes-models/${apiVersion}/${kind}`;
}

/** The Secret keys a workload's containers read (env valueFrom.secretKeyRef), by Secret: required and optional. */
function secretKeysOf(object, secrets) {
  const containers = [...(object.spec?.template?.spec?.containers ?? []), ...(object.spec?.template?.spec?.initContainers ?? [])];
  for (const variable of containers.flatMap((container) => container.env ?? [])) {
    const ref = variable.valueFrom?.secretKeyRef;
    if (!ref) continue;
    const keys = secrets.get(ref.name) ?? { required: new Set(), optional: new Set() };
    secrets.set(ref.name, keys);
    (ref.optional === true ? keys.optional : keys.required).add(ref.key);
  }
}

async function check(file, secrets) {
  const problems = [];
  const documents = parseAllDocuments(readFileSync(file, 'utf8'));
  for (const document of documents) {
    if (document.errors.length > 0) {
      problems.push(`${file}: not YAML: ${document.errors[0].message}`);
      continue;
    }
    const object = document.toJS();
    if (object === null) continue;
    const name = `${object.kind ?? '?'} ${object.metadata?.name ?? '?'}`;
    if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
      problems.push(`${file}: ${name}: no apiVersion or kind`);
      continue;
    }
    let Model;
    try {
      Model = (await import(modelPath(object.apiVersion, object.kind)))[object.kind];
    } catch {
      problems.push(`${file}: ${name}: ${object.apiVersion} ${object.kind} is not a Kubernetes API kind`);
      continue;
    }
    try {
      new Model(object).validate();
      console.log(`ok ${file}: ${object.apiVersion} ${name}`);
      secretKeysOf(object, secrets);
    } catch (error) {
      const details = (error.details ?? []).map((detail) => `${detail.instancePath || '/'} ${detail.message}`);
      problems.push(`${file}: ${name}: ${details.length > 0 ? details.join('; ') : error.message}`);
    }
  }
  return problems;
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node scripts/k8s-validate.mjs <manifest.yaml>…');
  process.exit(2);
}
const secrets = new Map();
const problems = (await Promise.all(files.map((file) => check(file, secrets)))).flat();
for (const [name, keys] of secrets) {
  const list = (set) => [...set].sort().join(', ') || '-';
  console.log(`secret ${name}: required ${list(keys.required)}; optional ${list(keys.optional)}`);
}
for (const problem of problems) console.error(`invalid: ${problem}`);
process.exit(problems.length > 0 ? 1 : 0);
