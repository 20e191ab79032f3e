import {
  ActionIcon,
  Button,
  Group,
  Menu,
  Modal,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  DeleteThreadDocument,
  RenameThreadDocument,
  type ThreadFieldsFragment,
  ThreadsDocument,
} from '@trove/api-client/browser';
import { gql } from '../api/client';
import { ErrorNotice, Loading } from '../components/states';

const PAGE = 30;

/** The query key of a project's thread list (invalidated when a question is asked in one). */
export const threadsKey = (projectId: string) => ['threads', projectId];

/**
 * The caller's threads in the project, most recently used first: pick one to continue it, start a
 * new one, rename or delete one. Used as the Ask page's sidebar and, at phone width, its drawer.
 */
export function ThreadList({
  projectId,
  selected,
  onSelect,
  onNew,
  titled = true,
}: {
  projectId: string;
  selected?: string;
  onSelect: (threadId: string) => void;
  onNew: () => void;
  /** Whether the list names itself (not in a drawer that does). */
  titled?: boolean;
}) {
  const threads = useInfiniteQuery({
    queryKey: threadsKey(projectId),
    queryFn: ({ pageParam }) => gql(ThreadsDocument, { projectId, first: PAGE, after: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) =>
      last.threads.pageInfo.hasNextPage ? last.threads.pageInfo.endCursor : undefined,
  });
  const [renaming, setRenaming] = useState<ThreadFieldsFragment>();
  const [deleting, setDeleting] = useState<ThreadFieldsFragment>();
  const items = threads.data?.pages.flatMap((page) => page.threads.nodes) ?? [];

  return (
    <Stack gap="xs" data-testid="thread-list">
      <Group justify={titled ? 'space-between' : 'flex-end'} wrap="nowrap">
        {titled && <Text fw={600}>Threads</Text>}
        <Button size="compact-sm" variant="light" onClick={onNew}>
          New thread
        </Button>
      </Group>
      {threads.isPending && <Loading label="Loading threads…" />}
      {threads.isError && <ErrorNotice error={threads.error} />}
      {threads.isSuccess && items.length === 0 && (
        <Text size="sm" c="dimmed">
          No threads yet: a question starts one, follow-ups continue it.
        </Text>
      )}
      {items.map((thread) => (
        <Group
          key={thread.id}
          gap={4}
          wrap="nowrap"
          data-testid="thread-item"
          data-selected={thread.id === selected}
          style={{
            borderRadius: 4,
            background: thread.id === selected ? 'var(--mantine-color-indigo-light)' : undefined,
          }}
        >
          <UnstyledButton
            onClick={() => onSelect(thread.id)}
            aria-current={thread.id === selected ? 'true' : undefined}
            p={6}
            style={{ flex: 1, minWidth: 0 }}
          >
            <Text size="sm" truncate="end">
              {thread.title}
            </Text>
            <Text size="xs" c="dimmed">
              {thread.turnCount} {thread.turnCount === 1 ? 'question' : 'questions'} ·{' '}
              {new Date(thread.updatedAt).toLocaleString()}
            </Text>
          </UnstyledButton>
          <Menu position="bottom-end">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions of thread ${thread.title}`}>
                ⋯
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setRenaming(thread)}>Rename</Menu.Item>
              <Menu.Item color="red" onClick={() => setDeleting(thread)}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      ))}
      {threads.hasNextPage && (
        <Button
          variant="subtle"
          size="compact-sm"
          loading={threads.isFetchingNextPage}
          onClick={() => void threads.fetchNextPage()}
        >
          More threads
        </Button>
      )}
      <RenameThread projectId={projectId} thread={renaming} onClose={() => setRenaming(undefined)} />
      <DeleteThread
        projectId={projectId}
        thread={deleting}
        onClose={() => setDeleting(undefined)}
        onDeleted={(id) => {
          if (id === selected) onNew();
        }}
      />
    </Stack>
  );
}

function RenameThread({
  projectId,
  thread,
  onClose,
}: {
  projectId: string;
  thread?: ThreadFieldsFragment;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const rename = useMutation({
    mutationFn: (input: { id: string; title: string }) => gql(RenameThreadDocument, input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: threadsKey(projectId) });
      close();
    },
  });
  function close() {
    rename.reset();
    setTitle('');
    onClose();
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    if (thread && title.trim()) rename.mutate({ id: thread.id, title: title.trim() });
  }
  return (
    <Modal opened={thread !== undefined} onClose={close} title="Rename thread" centered>
      {thread && (
        <form onSubmit={submit}>
          <Stack>
            <TextInput
              label="Title"
              placeholder={thread.title}
              value={title}
              onChange={(event) => setTitle(event.currentTarget.value)}
              maxLength={200}
              data-autofocus
            />
            {rename.isError && <ErrorNotice error={rename.error} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={rename.isPending} disabled={!title.trim()}>
                Rename
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function DeleteThread({
  projectId,
  thread,
  onClose,
  onDeleted,
}: {
  projectId: string;
  thread?: ThreadFieldsFragment;
  onClose: () => void;
  onDeleted: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) => gql(DeleteThreadDocument, { id }),
    onSuccess: async (_result, id) => {
      onDeleted(id);
      await queryClient.invalidateQueries({ queryKey: threadsKey(projectId) });
      close();
    },
  });
  function close() {
    remove.reset();
    onClose();
  }
  return (
    <Modal opened={thread !== undefined} onClose={close} title="Delete thread" centered>
      {thread && (
        <Stack>
          <Text size="sm">
            Delete <b>{thread.title}</b> and its {thread.turnCount}{' '}
            {thread.turnCount === 1 ? 'question' : 'questions'} with their answers? This cannot be undone.
          </Text>
          {remove.isError && <ErrorNotice error={remove.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(thread.id)}>
              Delete thread
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
