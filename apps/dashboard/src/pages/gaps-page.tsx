import { Badge, Button, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { ContentGapsDocument } from '@trove/api-client/browser';
import { feedbackExport, gql } from '../api/client';
import { useCursorPages } from '../components/cursor-pages';
import { formatDate } from '../components/format';
import { Empty, ErrorNotice, Loading } from '../components/states';
import { useProject } from './use-project';

const PAGE_SIZE = 50;

/** Saves `text` as a file named `name` through the browser's download. */
function saveFile(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * Content gaps (ADMIN keys): questions the project could not answer (INSUFFICIENT_CONTEXT) or
 * whose answers were voted down, most recently asked first — what a team should write next. The
 * votes themselves download as JSON Lines, the learned reranker's training data.
 */
export function GapsPage() {
  const { projectId, project } = useProject();
  const pages = useCursorPages();
  const after = pages.after;
  const gaps = useQuery({
    queryKey: ['contentGaps', projectId, after],
    queryFn: () => gql(ContentGapsDocument, { projectId, first: PAGE_SIZE, after }),
    placeholderData: keepPreviousData,
  });
  const download = useMutation({
    mutationFn: () => feedbackExport(projectId),
    onSuccess: ({ text }) => saveFile(`feedback-${project?.name ?? projectId}.jsonl`, text),
  });

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Gaps{project ? ` · ${project.name}` : ''}</Title>
        <Button
          variant="default"
          size="xs"
          loading={download.isPending}
          onClick={() => download.mutate()}
          data-testid="export-feedback"
        >
          Download feedback (JSON Lines)
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Questions asked in this project that found no answer, or whose answer was voted down. Spellings that
        differ only in case, spacing or end punctuation count as one question.
      </Text>
      {download.isSuccess && (
        <Text size="sm" role="status">
          Downloaded {download.data.count} votes.
        </Text>
      )}
      {download.isError && <ErrorNotice error={download.error} title="The download failed" />}
      {gaps.isPending ? (
        <Loading />
      ) : gaps.isError ? (
        <ErrorNotice error={gaps.error} />
      ) : gaps.data.contentGaps.totalCount === 0 ? (
        <Empty title="No gaps yet">
          Every question asked here was answered, and no answer was voted down.
        </Empty>
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped data-testid="gaps-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Question</Table.Th>
                  <Table.Th>Asked</Table.Th>
                  <Table.Th>Unanswered</Table.Th>
                  <Table.Th>Down votes</Table.Th>
                  <Table.Th>Last asked</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {gaps.data.contentGaps.nodes.map((gap) => (
                  <Table.Tr key={gap.key} data-testid="gap">
                    <Table.Td style={{ wordBreak: 'break-word' }}>
                      <Text size="sm">{gap.question}</Text>
                      {gap.askedBy.length > 0 && (
                        <Text size="xs" c="dimmed" data-testid="gap-asked-by">
                          Asked by {gap.askedBy.join(', ')}
                        </Text>
                      )}
                      {gap.comments.length > 0 && (
                        <List size="xs" c="dimmed" mt={4}>
                          {gap.comments.map((comment, i) => (
                            <List.Item key={i}>“{comment}”</List.Item>
                          ))}
                        </List>
                      )}
                    </Table.Td>
                    <Table.Td>{gap.askCount}</Table.Td>
                    <Table.Td>
                      <Count value={gap.unansweredCount} color="orange" />
                    </Table.Td>
                    <Table.Td>
                      <Count value={gap.downVoteCount} color="red" />
                    </Table.Td>
                    <Table.Td>{formatDate(gap.lastAskedAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages.pager(gaps.data.contentGaps.pageInfo)}
        </>
      )}
    </Stack>
  );
}

/** A count, marked when it is not zero. */
function Count({ value, color }: { value: number; color: string }) {
  return value > 0 ? (
    <Badge color={color} variant="light">
      {value}
    </Badge>
  ) : (
    <>0</>
  );
}
