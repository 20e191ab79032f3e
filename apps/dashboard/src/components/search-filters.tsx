import { Group, MultiSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SearchFilterOptionsDocument } from '@trove/api-client/browser';
import { gql } from '../api/client';

/** What a search or a question is narrowed to; empty lists mean "all". */
export interface SearchFilterValues {
  sourceIds: string[];
  mediaTypes: string[];
}

export const NO_FILTERS: SearchFilterValues = { sourceIds: [], mediaTypes: [] };

/** The values as `SearchFiltersInput` (GraphQL and the ask stream alike); nothing when none is set. */
export function filtersInput({ sourceIds, mediaTypes }: SearchFilterValues) {
  if (sourceIds.length === 0 && mediaTypes.length === 0) return undefined;
  return {
    ...(sourceIds.length ? { sourceIds } : {}),
    ...(mediaTypes.length ? { mediaTypes } : {}),
  };
}

/** The filters of the Search and Ask pages: the project's sources and document types. */
export function SearchFilters({
  projectId,
  value,
  onChange,
}: {
  projectId: string;
  value: SearchFilterValues;
  onChange: (value: SearchFilterValues) => void;
}) {
  const options = useQuery({
    queryKey: ['search-filter-options', projectId],
    queryFn: () => gql(SearchFilterOptionsDocument, { projectId }),
  });
  const sources = options.data?.sources ?? [];
  const types = options.data?.project?.documentTypes ?? [];
  return (
    <Group gap="sm" align="end" wrap="wrap">
      <MultiSelect
        label="Sources"
        placeholder={value.sourceIds.length ? undefined : sources.length ? 'All sources' : 'No sources'}
        data={sources.map((source) => ({ value: source.id, label: `${source.name} (${source.type})` }))}
        value={value.sourceIds}
        onChange={(sourceIds) => onChange({ ...value, sourceIds })}
        disabled={sources.length === 0}
        clearable
        searchable
        size="xs"
        style={{ flex: '1 1 220px', minWidth: 0 }}
      />
      <MultiSelect
        label="Document types"
        placeholder={value.mediaTypes.length ? undefined : types.length ? 'All types' : 'No documents'}
        data={types.map((type) => ({
          value: type.mediaType,
          label: `${type.label} (${type.documentCount})`,
        }))}
        value={value.mediaTypes}
        onChange={(mediaTypes) => onChange({ ...value, mediaTypes })}
        disabled={types.length === 0}
        clearable
        searchable
        size="xs"
        style={{ flex: '1 1 220px', minWidth: 0 }}
      />
    </Group>
  );
}
