import { Anchor, Button, Group, SegmentedControl, Select, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { gql } from '../api/client';
import { errorMessage } from '../api/errors';
import {
  DeleteDocumentDocument,
  DocumentsDocument,
  ReindexDocumentDocument,
  SourcesDocument,
  type DocumentsQuery as DocumentsResult,
  type DocumentStatus,
} from '@trove/api-client/browser';
import { useCaller } from '../caller';
import { useCursorPages } from '../components/cursor-pages';
import { formatMs } from '../components/format';
import { StatusBadge } from '../components/status-badge';
import { Empty, ErrorNotice, Loading } from '../components/states';
import { UploadZone } from '../components/upload-zone';
import { useProject } from './use-project';

const PAGE_SIZE = 25;
const STATUSES = ['ALL', 'PENDING', 'INDEXING', 'READY', 'FAILED'] as const;

type DocumentRow = DocumentsResult['documents']['nodes'][number];

export function DocumentsPage() {
  const { projectId, project } = useProject();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('ALL');
  const [sourceId, setSourceId] = useState<string | null>(null);
  const pages = useCursorPages();
  const after = pages.after;
  const documents = useQuery({
    queryKey: ['documents', projectId, status, sourceId, after],
    queryFn: () =>
      gql(DocumentsDocument, {
        projectId,
        first: PAGE_SIZE,
        after,
        status: status === 'ALL' ? null : (status as DocumentStatus),
        sourceId,
      }),
    placeholderData: keepPreviousData,
    // Documents on their way through the pipeline are followed until they settle.
    refetchInterval: (query) =>
      query.state.data?.documents.nodes.some((d) => d.status === 'PENDING' || d.status === 'INDEXING')
        ? 1500
        : false,
  });
  const sources = useQuery({
    queryKey: ['sources', projectId],
    queryFn: () => gql(SourcesDocument, { projectId }),
  });
  const sourceNames = new Map(sources.data?.sources.map((s) => [s.id, s.name]));
  // Uploading, re-indexing and deleting need WRITE: a VIEWER key reads only.
  const canWrite = useCaller().can('WRITE');
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['documents', projectId] });
    void queryClient.invalidateQueries({ queryKey: ['projects'] });
  };

  return (
    <Stack>
      <Title order={2}>Documents{project ? ` · ${project.name}` : ''}</Title>
      {canWrite && <UploadZone projectId={projectId} onUploaded={refresh} />}
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          aria-label="Filter by status"
          data={[...STATUSES]}
          value={status}
          onChange={(value) => {
            setStatus(value as (typeof STATUSES)[number]);
            pages.reset();
          }}
          size="xs"
        />
        {(sources.data?.sources.length ?? 0) > 0 && (
          <Select
            aria-label="Filter by source"
            placeholder="All sources"
            data={sources.data!.sources.map((s) => ({ value: s.id, label: s.name }))}
            value={sourceId}
            onChange={(value) => {
              setSourceId(value);
              pages.reset();
            }}
            clearable
            size="xs"
            w={200}
          />
        )}
        {documents.data && (
          <Text size="sm" c="dimmed">
            {documents.data.documents.totalCount} document
            {documents.data.documents.totalCount === 1 ? '' : 's'}
          </Text>
        )}
      </Group>
      {documents.isPending ? (
        <Loading label="Loading documents…" />
      ) : documents.isError ? (
        <ErrorNotice error={documents.error} />
      ) : documents.data.documents.nodes.length === 0 ? (
        <Empty title={status === 'ALL' ? 'No documents yet' : `No ${status} documents`}>
          {status === 'ALL'
            ? canWrite
              ? 'Drop files above, or add a source on the Sources page.'
              : 'Nothing has been added to this project yet.'
            : 'Try another filter.'}
        </Empty>
      ) : (
        <>
          <Table.ScrollContainer minWidth={820}>
            <Table striped verticalSpacing="xs" aria-label="Documents">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Document</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th ta="right">Chunks</Table.Th>
                  <Table.Th ta="right">Pages</Table.Th>
                  <Table.Th>Timings</Table.Th>
                  <Table.Th>Source</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {documents.data.documents.nodes.map((document) => (
                  <DocumentRowView
                    key={document.id}
                    projectId={projectId}
                    document={document}
                    source={document.sourceId ? (sourceNames.get(document.sourceId) ?? 'source') : 'upload'}
                    onChanged={refresh}
                    canWrite={canWrite}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages.pager(documents.data.documents.pageInfo)}
        </>
      )}
    </Stack>
  );
}

function DocumentRowView({
  projectId,
  document,
  source,
  onChanged,
  canWrite,
}: {
  projectId: string;
  document: DocumentRow;
  source: string;
  onChanged: () => void;
  canWrite: boolean;
}) {
  const reindex = useMutation({
    mutationFn: () => gql(ReindexDocumentDocument, { id: document.id }),
    onSuccess: onChanged,
  });
  const remove = useMutation({
    mutationFn: () => gql(DeleteDocumentDocument, { id: document.id }),
    onSuccess: onChanged,
  });
  const t = document.timings;
  const failure = reindex.error ?? remove.error;
  return (
    <Table.Tr data-testid="document-row">
      <Table.Td maw={280}>
        <Anchor component={Link} to={`/projects/${projectId}/documents/${document.id}`} fw={600} size="sm">
          {document.title || document.fileName}
        </Anchor>
        {document.title && document.title !== document.fileName && (
          <Text size="xs" c="dimmed" truncate>
            {document.fileName}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <StatusBadge status={document.status} data-testid="document-status" />
        {document.progress && (
          <Text size="xs" c="dimmed" data-testid="document-progress">
            {document.progress.stage === 'ocr' ? 'OCR' : document.progress.stage} page{' '}
            {document.progress.page}
            {document.progress.pageCount ? ` of ${document.progress.pageCount}` : ''}
          </Text>
        )}
        {document.error && (
          <Text size="xs" c="red" maw={240}>
            {document.error.code}: {document.error.message}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right">{document.chunkCount}</Table.Td>
      <Table.Td ta="right">{document.pageCount ?? '–'}</Table.Td>
      <Table.Td>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="document-timings">
          total {formatMs(t.totalMs)} · fetch {formatMs(t.fetchMs)}
          <br />
          parse {formatMs(t.parseMs)} · chunk {formatMs(t.chunkMs)}
          <br />
          embed {formatMs(t.embedMs)} · upsert {formatMs(t.upsertMs)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{source}</Text>
      </Table.Td>
      <Table.Td>
        {canWrite && (
          <Group gap={4} wrap="nowrap" justify="flex-end">
            <Button
              size="compact-xs"
              variant="subtle"
              loading={reindex.isPending}
              onClick={() => reindex.mutate()}
            >
              Re-index
            </Button>
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              loading={remove.isPending}
              onClick={() => {
                if (window.confirm(`Delete ${document.fileName} and its chunks?`)) remove.mutate();
              }}
            >
              Delete
            </Button>
          </Group>
        )}
        {failure && (
          <Text size="xs" c="red">
            {errorMessage(failure)}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
