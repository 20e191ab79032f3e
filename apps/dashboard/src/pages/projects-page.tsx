import { Button, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { gql } from '../api/client';
import { CreateProjectDocument, DeleteProjectDocument, ProjectsDocument } from '@trove/api-client/browser';
import { useCaller } from '../caller';
import { formatDate, plural } from '../components/format';
import { ResponsiveTable } from '../components/responsive-table';
import { StatusBadge } from '../components/status-badge';
import { Empty, ErrorNotice, Loading } from '../components/states';

export function ProjectsPage() {
  const queryClient = useQueryClient();
  const projects = useQuery({
    queryKey: ['projects'],
    queryFn: () => gql(ProjectsDocument),
    // A project being deleted disappears on its own.
    refetchInterval: (query) =>
      query.state.data?.projects.some((p) => p.status === 'DELETING') ? 2000 : false,
  });
  const [deleting, setDeleting] = useState<{ id: string; name: string }>();
  // Creating and deleting projects is for ADMIN keys; others see only their projects.
  const admin = useCaller().can('ADMIN');
  const deleteButton = (project: { id: string; name: string; status: string }) =>
    admin && (
      <Button
        size="compact-sm"
        color="red"
        variant="subtle"
        disabled={project.status === 'DELETING'}
        onClick={() => setDeleting(project)}
      >
        Delete
      </Button>
    );

  return (
    <Stack>
      <Title order={2}>Projects</Title>
      {admin && <CreateProject onCreated={() => queryClient.invalidateQueries({ queryKey: ['projects'] })} />}
      {projects.isPending ? (
        <Loading label="Loading projects…" />
      ) : projects.isError ? (
        <ErrorNotice error={projects.error} />
      ) : projects.data.projects.length === 0 ? (
        <Empty title="No projects yet">
          {admin
            ? 'Create one above, then upload files or add a source to it.'
            : 'This key reaches no project yet; ask an administrator.'}
        </Empty>
      ) : (
        <ResponsiveTable
          label="Projects"
          rows={projects.data.projects}
          rowKey={(project) => project.id}
          minWidth={560}
          tableProps={{ highlightOnHover: true, verticalSpacing: 'sm' }}
          columns={[
            {
              header: 'Name',
              cell: (project) => (
                <Text component={Link} to={`/projects/${project.id}/documents`} fw={600} c="indigo">
                  {project.name}
                </Text>
              ),
            },
            { header: 'Status', cell: (project) => <StatusBadge status={project.status} /> },
            { header: 'Documents', align: 'right', cell: (project) => project.stats.documentCount },
            { header: 'Chunks', align: 'right', cell: (project) => project.stats.chunkCount },
            { header: 'Created', cell: (project) => formatDate(project.createdAt) },
            { header: '', align: 'right', cell: (project) => deleteButton(project) },
          ]}
          card={(project) => (
            <>
              <Group justify="space-between" wrap="nowrap">
                <Text component={Link} to={`/projects/${project.id}/documents`} fw={600} c="indigo" truncate>
                  {project.name}
                </Text>
                <StatusBadge status={project.status} />
              </Group>
              <Group justify="space-between" mt={4}>
                <Text size="sm" c="dimmed">
                  {plural(project.stats.documentCount, 'document')} ·{' '}
                  {plural(project.stats.chunkCount, 'chunk')}
                </Text>
                {deleteButton(project)}
              </Group>
            </>
          )}
        />
      )}
      <DeleteProject project={deleting} onClose={() => setDeleting(undefined)} />
    </Stack>
  );
}

function CreateProject({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: (projectName: string) => gql(CreateProjectDocument, { name: projectName }),
    onSuccess: () => {
      setName('');
      onCreated();
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(name);
  }
  return (
    <form onSubmit={submit}>
      <Stack gap="xs">
        <Group align="end" wrap="wrap">
          <TextInput
            label="New project"
            placeholder="Team handbook"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            style={{ flex: '1 1 220px' }}
            maxLength={200}
          />
          <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
            Create project
          </Button>
        </Group>
        {create.isError && <ErrorNotice error={create.error} title="The project was not created" />}
      </Stack>
    </form>
  );
}

/** Deleting removes everything in the project: the name must be typed to confirm. */
function DeleteProject({
  project,
  onClose,
}: {
  project?: { id: string; name: string };
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const remove = useMutation({
    mutationFn: (id: string) => gql(DeleteProjectDocument, { id }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['projects'] });
      close();
    },
  });
  function close() {
    setTyped('');
    remove.reset();
    onClose();
  }
  return (
    <Modal opened={project !== undefined} onClose={close} title="Delete project" centered>
      {project && (
        <Stack>
          <Text size="sm">
            This deletes <b>{project.name}</b> with all its documents, chunks, sources and files. It cannot be
            undone. Type the project&apos;s name to confirm.
          </Text>
          <TextInput
            label="Project name"
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            data-autofocus
          />
          {remove.isError && <ErrorNotice error={remove.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              color="red"
              disabled={typed !== project.name}
              loading={remove.isPending}
              onClick={() => remove.mutate(project.id)}
            >
              Delete project
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
