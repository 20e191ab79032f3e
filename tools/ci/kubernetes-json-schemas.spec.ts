import { describe, expect, it } from 'vitest';
import { schemaFileName, tighten } from './kubernetes-json-schemas';

describe('kubernetes-json-schemas', () => {
  it('names files the way kubeconform looks them up', () => {
    expect(schemaFileName({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe(
      'deployment-apps-v1.json',
    );
    expect(schemaFileName({ group: '', version: 'v1', kind: 'Service' })).toBe('service-v1.json');
    expect(schemaFileName({ group: 'monitoring.coreos.com', version: 'v1', kind: 'ServiceMonitor' })).toBe(
      'servicemonitor-monitoring-v1.json',
    );
  });

  it('refuses undeclared fields, accepts int-or-string both ways and points references at the shared file', () => {
    const schema = tighten(
      {
        description: 'dropped',
        type: 'object',
        properties: {
          port: { format: 'int-or-string', type: 'string' },
          target: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          spec: { $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec' },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          raw: {
            type: 'object',
            properties: { a: { type: 'string' } },
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
      },
      '_definitions.json#/definitions/',
    );
    expect(schema).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        port: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        target: { 'x-kubernetes-int-or-string': true, oneOf: [{ type: 'string' }, { type: 'integer' }] },
        spec: { $ref: '_definitions.json#/definitions/io.k8s.api.apps.v1.DeploymentSpec' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        raw: {
          type: 'object',
          properties: { a: { type: 'string' } },
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    });
  });
});
