import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Highlight,
  NumberInput,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { gql } from '../api/client';
import {
  hitSource,
  SearchDocument,
  type SearchMode,
  type SearchQuery as SearchResult,
} from '@trove/api-client/browser';
import { formatScore, pageRange } from '../components/format';
import {
  filtersInput,
  NO_FILTERS,
  SearchFilters,
  type SearchFilterValues,
} from '../components/search-filters';
import { Empty, ErrorNotice, Loading } from '../components/states';
import { explainInWords, highlightTerms } from '../search/hit-explain';
import { useProject } from './use-project';

type Hit = SearchResult['search']['hits'][number];

export function SearchPage() {
  const { projectId, project } = useProject();
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<SearchMode>('HYBRID');
  const [limit, setLimit] = useState<number>(10);
  const [filters, setFilters] = useState<SearchFilterValues>(NO_FILTERS);
  const [submitted, setSubmitted] = useState<{
    query: string;
    mode: SearchMode;
    limit: number;
    filters?: ReturnType<typeof filtersInput>;
  }>();
  const search = useQuery({
    queryKey: ['search', projectId, submitted],
    queryFn: () => gql(SearchDocument, { input: { projectId, ...submitted!, explain: true } }),
    enabled: submitted !== undefined,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (query.trim()) setSubmitted({ query: query.trim(), mode, limit, filters: filtersInput(filters) });
  }

  return (
    <Stack>
      <Title order={2}>Search{project ? ` · ${project.name}` : ''}</Title>
      <form onSubmit={submit}>
        <Stack gap="xs">
          <Group align="end" wrap="wrap">
            <TextInput
              label="Query"
              placeholder="How do I roll back a release?"
              value={query}
              onChange={(event) => setQuery(event.currentTarget.value)}
              style={{ flex: '1 1 260px' }}
            />
            <NumberInput
              label="Limit"
              min={1}
              max={100}
              value={limit}
              onChange={(value) => setLimit(typeof value === 'number' ? value : 10)}
              w={90}
            />
            <Button type="submit" disabled={!query.trim()} loading={search.isFetching}>
              Search
            </Button>
          </Group>
          <SegmentedControl
            aria-label="Search mode"
            data={['HYBRID', 'KEYWORD', 'VECTOR']}
            value={mode}
            onChange={(value) => setMode(value as SearchMode)}
            size="xs"
            style={{ alignSelf: 'flex-start' }}
          />
          <SearchFilters projectId={projectId} value={filters} onChange={setFilters} />
        </Stack>
      </form>
      {!submitted ? (
        <Empty title="Search this project">
          Hybrid search runs BM25 and kNN legs, fuses them and reranks; open a hit&apos;s explain view to see
          why it ranked where it did.
        </Empty>
      ) : search.isPending ? (
        <Loading label="Searching…" />
      ) : search.isError ? (
        <ErrorNotice error={search.error} />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {search.data.search.hits.length} hits in {search.data.search.tookMs} ms
            {search.data.search.reranked ? ` · reranked (${search.data.search.reranker})` : ''}
          </Text>
          {search.data.search.warnings.map((warning) => (
            <Text key={warning} size="sm" c="orange">
              {warning}
            </Text>
          ))}
          {search.data.search.hits.length === 0 ? (
            <Empty title="No hits">Nothing in this project matches; try other words or another mode.</Empty>
          ) : (
            search.data.search.hits.map((hit, index) => (
              <HitCard
                key={hit.chunkId}
                hit={hit}
                rank={index + 1}
                query={submitted.query}
                reranked={search.data.search.reranked}
              />
            ))
          )}
        </>
      )}
    </Stack>
  );
}

function HitCard({
  hit,
  rank,
  query,
  reranked,
}: {
  hit: Hit;
  rank: number;
  query: string;
  reranked: boolean;
}) {
  const [open, setOpen] = useState(false);
  const source = hitSource(hit);
  return (
    <Card withBorder padding="sm" data-testid="search-hit">
      {/* The rank is the one visible order: a score beside it would be one of several, and not
          always the one the list is sorted by. */}
      <Group gap="xs" wrap="nowrap" align="start">
        <Badge variant="filled" style={{ flexShrink: 0 }} aria-label={`rank ${rank}`}>
          {rank}
        </Badge>
        <div style={{ minWidth: 0 }}>
          {/* Where the hit comes from, by name: the source, then the document (its file on hover). */}
          <Text
            lineClamp={2}
            style={{ overflowWrap: 'anywhere' }}
            title={hit.fileName ?? undefined}
            data-testid="hit-origin"
          >
            {source && (
              <Text span c="dimmed" data-testid="hit-source">
                {source} ›{' '}
              </Text>
            )}
            <Text span fw={600} data-testid="hit-document">
              {hit.title}
            </Text>
          </Text>
          {hit.headingPath.length > 1 && (
            <Text size="xs" c="dimmed" mt={2}>
              {hit.headingPath.slice(1).join(' › ')}
            </Text>
          )}
        </div>
      </Group>
      <Highlight
        highlight={highlightTerms(query)}
        size="sm"
        mt="xs"
        lineClamp={4}
        style={{ wordBreak: 'break-word' }}
        data-testid="hit-text"
      >
        {hit.text}
      </Highlight>
      <Group gap="sm" mt="xs">
        <Button size="compact-xs" variant="light" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {open ? 'Hide explain' : 'Explain'}
        </Button>
        {hit.citationUrl && (
          <Anchor size="xs" href={hit.citationUrl} target="_blank" rel="noreferrer">
            Open in {hit.title}
            {hit.page ? `, page ${pageRange(hit.page, hit.pageEnd)}` : ''}
          </Anchor>
        )}
      </Group>
      {open && <Explain hit={hit} rank={rank} reranked={reranked} />}
    </Card>
  );
}

/** Why the hit ranked where it did, in words; each leg's rank and score behind a toggle. */
function Explain({ hit, rank, reranked }: { hit: Hit; rank: number; reranked: boolean }) {
  const [raw, setRaw] = useState(false);
  const explain = hit.explain;
  if (!explain) return <Text size="sm">No explanation was returned.</Text>;
  const rows: [string, string][] = [
    [
      'BM25 rank / score',
      explain.bm25 ? `#${explain.bm25.rank} / ${formatScore(explain.bm25.score)}` : 'not retrieved',
    ],
    [
      'kNN rank / score',
      explain.knn ? `#${explain.knn.rank} / ${formatScore(explain.knn.score)}` : 'not retrieved',
    ],
    ['Fused score', formatScore(explain.fusedScore)],
    [
      'Rerank score',
      explain.rerankScore === null || explain.rerankScore === undefined
        ? 'not reranked'
        : formatScore(explain.rerankScore),
    ],
    ['Heading path', hit.headingPath.join(' › ') || '–'],
    ['Page', pageRange(hit.page, hit.pageEnd)],
  ];
  return (
    <Stack gap="xs" mt="sm" data-testid="explain">
      <Text size="sm" data-testid="explain-words">
        {explainInWords({
          rank,
          bm25: explain.bm25,
          knn: explain.knn,
          reranked: reranked && explain.rerankScore !== null && explain.rerankScore !== undefined,
        })}
      </Text>
      <Button
        size="compact-xs"
        variant="subtle"
        color="gray"
        onClick={() => setRaw((shown) => !shown)}
        aria-expanded={raw}
        style={{ alignSelf: 'flex-start' }}
      >
        {raw ? 'Hide raw scores' : 'Show raw scores'}
      </Button>
      {raw && (
        <Stack gap="xs" data-testid="explain-raw">
          <Table withTableBorder verticalSpacing={4} fz="sm">
            <Table.Tbody>
              {rows.map(([name, value]) => (
                <Table.Tr key={name}>
                  <Table.Th w={150}>{name}</Table.Th>
                  <Table.Td>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {explain.topFeatures && explain.topFeatures.length > 0 && (
            <div>
              <Text size="xs" fw={600}>
                Reranker features that moved the score most
              </Text>
              <Group gap={6} mt={4}>
                {explain.topFeatures.map((feature) => (
                  <Badge
                    key={feature.name}
                    variant="outline"
                    color={feature.contribution >= 0 ? 'green' : 'red'}
                  >
                    {feature.name} {feature.contribution >= 0 ? '+' : ''}
                    {feature.contribution.toFixed(3)}
                  </Badge>
                ))}
              </Group>
            </div>
          )}
        </Stack>
      )}
    </Stack>
  );
}
