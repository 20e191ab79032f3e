import { describe, expect, it } from 'vitest';
import { createElasticsearchClient, replicaSettings } from './elasticsearch';

describe('createElasticsearchClient', () => {
  it('sends requests to one node', async () => {
    const es = createElasticsearchClient('http://127.0.0.1:9200');
    expect(es.connectionPool.connections.map((c) => c.url.port)).toEqual(['9200']);
    await es.close();
  });

  it('takes a cluster as comma-separated nodes and still finds a node after many failures', async () => {
    const es = createElasticsearchClient(
      'http://127.0.0.1:9200, http://127.0.0.1:9201,http://127.0.0.1:9202',
    );
    const pool = es.connectionPool;
    expect(pool.connections.map((c) => c.url.port)).toEqual(['9200', '9201', '9202']);
    // A node restart or a burst of 503s marks nodes dead again and again (elastic/elasticsearch-js#1714).
    const next = (requestId: number) =>
      pool.getConnection({ now: Date.now(), requestId, name: 'test', context: null });
    for (let i = 0; i < 30; i++) {
      const connection = next(i);
      if (connection) pool.markDead(connection);
    }
    for (let i = 0; i < 10; i++) expect(next(i)).not.toBeNull();
    await es.close();
  });
});

describe('replicaSettings', () => {
  it('lets a range follow the cluster and fixes a number', () => {
    expect(replicaSettings('0-1')).toEqual({ auto_expand_replicas: '0-1' });
    expect(replicaSettings('0-all')).toEqual({ auto_expand_replicas: '0-all' });
    expect(replicaSettings('2')).toEqual({ auto_expand_replicas: 'false', number_of_replicas: 2 });
  });
});
