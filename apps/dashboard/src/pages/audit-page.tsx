import { Badge, Button, Code, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AuditEventsDocument, type AuditOutcome } from '@trove/api-client/browser';
import { auditExport, gql } from '../api/client';
import { useCursorPages } from '../components/cursor-pages';
import { formatDate } from '../components/format';
import { Empty, ErrorNotice, Loading } from '../components/states';

const PAGE_SIZE = 50;
const OUTCOME_COLORS: Record<AuditOutcome, string> = { SUCCESS: 'green', DENIED: 'red', FAILURE: 'orange' };

/** The audit log (install-wide ADMINs): who did what, when, from where, and how it ended; filtered, exported. */
export function AuditPage() {
  const pages = useCursorPages();
  const [action, setAction] = useState('');
  const [outcome, setOutcome] = useState<AuditOutcome | null>(null);
  const [actorId, setActorId] = useState('');
  const filter = {
    ...(action.trim() && { action: action.trim() }),
    ...(outcome && { outcome }),
    ...(actorId.trim() && { actorId: actorId.trim() }),
  };
  const events = useQuery({
    queryKey: ['auditEvents', filter, pages.after],
    queryFn: () => gql(AuditEventsDocument, { first: PAGE_SIZE, after: pages.after, filter }),
    placeholderData: keepPreviousData,
  });
  const download = useMutation({
    mutationFn: () => auditExport(new URLSearchParams(filter).toString()),
    onSuccess: (blob) => {
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = 'trove-audit.jsonl';
      link.click();
      URL.revokeObjectURL(url);
    },
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Audit log</Title>
        <Button variant="default" size="xs" loading={download.isPending} onClick={() => download.mutate()}>
          Export JSON Lines
        </Button>
      </Group>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Action"
          placeholder="auth. or source.added"
          value={action}
          onChange={(e) => setAction(e.currentTarget.value)}
        />
        <Select
          label="Outcome"
          placeholder="any"
          data={['SUCCESS', 'DENIED', 'FAILURE']}
          value={outcome}
          onChange={(value) => setOutcome(value as AuditOutcome | null)}
          clearable
        />
        <TextInput
          label="Who (user or key id)"
          value={actorId}
          onChange={(e) => setActorId(e.currentTarget.value)}
        />
      </Group>
      {download.error && <ErrorNotice error={download.error} />}
      {events.isPending ? (
        <Loading />
      ) : events.error ? (
        <ErrorNotice error={events.error} />
      ) : events.data.auditEvents.nodes.length === 0 ? (
        <Empty title="No entries match" />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {events.data.auditEvents.totalCount} entries
          </Text>
          <Table striped data-testid="audit-log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Outcome</Table.Th>
                <Table.Th>From</Table.Th>
                <Table.Th>Detail</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {events.data.auditEvents.nodes.map((event) => (
                <Table.Tr key={event.id}>
                  <Table.Td>{formatDate(event.at)}</Table.Td>
                  <Table.Td>
                    {event.actor.name}
                    {event.actor.credential && (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        ({event.actor.credential.toLowerCase().replace('_', ' ')})
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Code>{event.action}</Code>
                    {event.target && (
                      <Text size="xs" c="dimmed">
                        {event.target.kind} {event.target.id}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={OUTCOME_COLORS[event.outcome]} variant="light">
                      {event.outcome}
                    </Badge>
                    {event.code && (
                      <Text size="xs" c="dimmed">
                        {event.code}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{event.address ?? '—'}</Table.Td>
                  <Table.Td>
                    <Text size="xs">{event.detail ? JSON.stringify(event.detail) : ''}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {pages.pager(events.data.auditEvents.pageInfo)}
        </>
      )}
    </Stack>
  );
}
