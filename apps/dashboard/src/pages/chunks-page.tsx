import { Anchor, Badge, Breadcrumbs, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { gql } from '../api/client';
import { DocumentChunksDocument } from '@trove/api-client/browser';
import { pageRange, plural } from '../components/format';
import { StatusBadge } from '../components/status-badge';
import { Empty, ErrorNotice, Loading } from '../components/states';

/** The chunk inspector: a document's chunks in reading order, with what a citation is made of. */
export function ChunksPage() {
  const { projectId, documentId } = useParams<{ projectId: string; documentId: string }>();
  const result = useQuery({
    queryKey: ['chunks', documentId],
    queryFn: () => gql(DocumentChunksDocument, { id: documentId! }),
  });

  return (
    <Stack>
      <Anchor component={Link} to={`/projects/${projectId}/documents`} size="sm">
        ← Documents
      </Anchor>
      {result.isPending ? (
        <Loading label="Loading chunks…" />
      ) : result.isError ? (
        <ErrorNotice error={result.error} />
      ) : !result.data.document ? (
        <Empty title="Document not found">It may have been deleted.</Empty>
      ) : (
        <>
          <Group gap="sm" wrap="wrap">
            <Title order={2} style={{ wordBreak: 'break-word' }}>
              {result.data.document.title || result.data.document.fileName}
            </Title>
            <StatusBadge status={result.data.document.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {result.data.document.fileName} · {plural(result.data.chunks.length, 'chunk')}
            {result.data.document.pageCount ? ` · ${result.data.document.pageCount} pages` : ''}
          </Text>
          {result.data.chunks.length === 0 ? (
            <Empty title="No chunks">The document is not indexed (yet), or it has no text.</Empty>
          ) : (
            result.data.chunks.map((chunk) => (
              <Card key={chunk.id} withBorder padding="sm" data-testid="chunk">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Group gap="xs" wrap="wrap">
                    <Badge variant="filled" color="gray">
                      #{chunk.position}
                    </Badge>
                    <Breadcrumbs separator="›" style={{ flexWrap: 'wrap' }}>
                      {(chunk.headingPath.length ? chunk.headingPath : ['(no heading)']).map((heading, i) => (
                        <Text key={i} size="sm" fw={500}>
                          {heading}
                        </Text>
                      ))}
                    </Breadcrumbs>
                  </Group>
                  <Group gap={6} wrap="wrap">
                    <Badge variant="light">{chunk.tokenCount} tokens</Badge>
                    {chunk.page && <Badge variant="light">p. {pageRange(chunk.page, chunk.pageEnd)}</Badge>}
                    {chunk.chapter && <Badge variant="light">{chunk.chapter}</Badge>}
                    <Badge variant="outline">{chunk.language}</Badge>
                  </Group>
                </Group>
                <Group gap="md" mt={4} wrap="wrap">
                  <Text size="xs" c="dimmed">
                    anchor: {chunk.anchor ? <code>#{chunk.anchor}</code> : '–'}
                  </Text>
                  {chunk.citationUrl && (
                    <Anchor size="xs" href={chunk.citationUrl} target="_blank" rel="noreferrer">
                      citation link
                    </Anchor>
                  )}
                </Group>
                <Text
                  size="sm"
                  mt="xs"
                  style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
                  lineClamp={12}
                >
                  {chunk.text}
                </Text>
              </Card>
            ))
          )}
        </>
      )}
    </Stack>
  );
}
