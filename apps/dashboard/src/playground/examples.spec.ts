import { parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { exampleTabs } from './examples';

const origin = 'http://trove.test';
const project = { id: '0b7c4a5e-1111-4222-8333-444455556666', name: 'Quickstart sample' };
const sourceId = '9d0e1f2a-1111-4222-8333-444455556666';

const operations = (query: string) =>
  parse(query).definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');

describe('the playground examples', () => {
  const tabs = exampleTabs({ origin, project, sourceId });

  it('open on a search of the current project, runnable as it is', () => {
    const [first] = tabs;
    expect(operations(first!.query).map((o) => [o.operation, o.name?.value])).toEqual([['query', 'Search']]);
    expect(JSON.parse(first!.variables)).toEqual({ projectId: project.id });
    expect(first!.query).toContain('"Quickstart sample"');
  });

  it('read before they write: only the last tab holds mutations', () => {
    const kinds = tabs.map((tab) => operations(tab.query).map((o) => o.operation));
    expect(kinds.slice(0, -1).flat()).not.toContain('mutation');
    expect(kinds.at(-1)).toContain('mutation');
  });

  it('carry real ids, never a placeholder, when there is a project and a source', () => {
    for (const tab of tabs) {
      expect(tab.query + tab.variables).not.toMatch(/<(project|source|run) id>/);
      const values = JSON.parse(tab.variables) as Record<string, string>;
      expect(Object.values(values).every((v) => v === project.id || v === sourceId)).toBe(true);
    }
  });

  it('say what to do when the caller reaches no project yet', () => {
    const [first] = exampleTabs({ origin });
    expect(first!.query).toContain('none yet');
    expect(exampleTabs({ origin }).every((tab) => operations(tab.query).length > 0)).toBe(true);
  });
});
