import {
  Anchor,
  AppShell,
  Avatar,
  Badge,
  Burger,
  Button,
  Center,
  Group,
  Loader,
  NavLink,
  Select,
  Text,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconBraces,
  IconBulb,
  IconFileText,
  IconFolders,
  IconHistory,
  IconKey,
  IconLock,
  IconMessageCircle,
  IconPlug,
  IconSearch,
  IconSettings,
  IconShieldLock,
  IconUsers,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, Route, Routes, useLocation, useMatch, useNavigate } from 'react-router';
import { gql } from './api/client';
import { lastProjectId, startingProject } from './api/last-project';
import { ProjectsDocument } from '@trove/api-client/browser';
import { Empty } from './components/states';
import { useCaller } from './caller';
import { ApiKeysPage } from './pages/api-keys-page';
import { AuditPage } from './pages/audit-page';
import { PeoplePage } from './pages/people-page';
import { ProjectAccessPage } from './pages/project-access-page';
import { TokensPage } from './pages/tokens-page';
import { AskPage } from './pages/ask-page';
import { ChunksPage } from './pages/chunks-page';
import { DocumentsPage } from './pages/documents-page';
import { GapsPage } from './pages/gaps-page';
import { ProjectsPage } from './pages/projects-page';
import { SearchPage } from './pages/search-page';
import { SignInPage } from './pages/sign-in-page';
import { SourcesPage } from './pages/sources-page';
import { useSession } from './session-context';

const ICON = { size: 18, stroke: 1.6 } as const;

/** The project pages people use, in the navigation's order: asking first. */
const PROJECT_PAGES = [
  { path: 'ask', label: 'Ask', icon: <IconMessageCircle {...ICON} /> },
  { path: 'search', label: 'Search', icon: <IconSearch {...ICON} /> },
  { path: 'documents', label: 'Documents', icon: <IconFileText {...ICON} /> },
  { path: 'sources', label: 'Sources', icon: <IconPlug {...ICON} /> },
] as const;

/** A project's own settings pages, for its ADMINs only (under Settings). */
const PROJECT_SETTINGS = [
  { path: 'gaps', label: 'Gaps', icon: <IconBulb {...ICON} /> },
  { path: 'access', label: 'Access', icon: <IconShieldLock {...ICON} /> },
] as const;

/**
 * Where a signed-in person lands: Ask in the project they last opened (or the first with
 * documents); the project list when they reach none yet.
 */
function Landing() {
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => gql(ProjectsDocument) });
  if (projects.isPending) {
    return (
      <Center mih="50vh">
        <Loader size="sm" />
      </Center>
    );
  }
  const project = startingProject(projects.data?.projects ?? [], lastProjectId());
  return <Navigate to={project ? `/projects/${project.id}/ask` : '/projects'} replace />;
}

export function App() {
  const session = useSession();
  if (session.signedIn === undefined) {
    return (
      <Center mih="100vh">
        <Loader size="sm" />
      </Center>
    );
  }
  if (!session.signedIn) return <SignInPage />;
  return <Shell />;
}

/** A person's picture from their provider, else their initials. */
function initials(name: string | undefined): string {
  return (name ?? '?')
    .replace(/<.*>/, '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
}

function Shell() {
  const session = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const navigate = useNavigate();
  const projectMatch = useMatch('/projects/:projectId/*');
  const projectId = projectMatch?.params.projectId;
  const section = projectMatch?.params['*']?.split('/')[0] ?? 'ask';
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => gql(ProjectsDocument) });
  const caller = useCaller();
  const admin = caller.can('ADMIN');
  const projectAdmin = caller.canIn(projectId, 'ADMIN');

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Anchor component={Link} to="/" fw={800} fz="xl" underline="never">
              Trove
            </Anchor>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {caller.person && (
              <Group gap={6} wrap="nowrap" data-testid="caller-person">
                <Avatar
                  src={caller.pictureUrl ?? null}
                  alt={caller.name}
                  size="sm"
                  radius="xl"
                  color="indigo"
                >
                  {initials(caller.name)}
                </Avatar>
                <Text size="sm" visibleFrom="sm">
                  {caller.name}
                </Text>
              </Group>
            )}
            {caller.role && !caller.person && (
              <Badge variant="light" color="gray" data-testid="caller-role" title={caller.name}>
                {caller.role}
              </Badge>
            )}
            <Button variant="subtle" size="compact-sm" onClick={() => session.signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <Select
          mb="xs"
          label="Project"
          placeholder={projects.data?.projects.length ? 'Choose a project' : 'No projects yet'}
          data={(projects.data?.projects ?? []).map((p) => ({ value: p.id, label: p.name }))}
          value={projectId ?? null}
          onChange={(id) => {
            if (id) navigate(`/projects/${id}/${section}`);
            close();
          }}
          searchable
          aria-label="Project"
        />
        {PROJECT_PAGES.map((page) => (
          <NavLink
            key={page.path}
            component={Link}
            to={projectId ? `/projects/${projectId}/${page.path}` : '/projects'}
            label={page.label}
            leftSection={page.icon}
            disabled={!projectId}
            active={projectId !== undefined && section === page.path}
            onClick={close}
          />
        ))}
        <NavLink href="/playground" label="GraphQL playground" leftSection={<IconBraces {...ICON} />} />
        <Group gap={6} mt="lg" mb={4} px="sm" c="dimmed">
          <IconSettings {...ICON} />
          <Text size="xs" fw={700} tt="uppercase" id="settings-heading">
            Settings
          </Text>
        </Group>
        <div role="group" aria-labelledby="settings-heading">
          <SettingsLink to="/projects" label="Projects" icon={<IconFolders {...ICON} />} onClick={close} />
          {projectId &&
            projectAdmin &&
            PROJECT_SETTINGS.map((page) => (
              <NavLink
                key={page.path}
                component={Link}
                to={`/projects/${projectId}/${page.path}`}
                label={page.label}
                leftSection={page.icon}
                active={section === page.path}
                onClick={close}
              />
            ))}
          {admin && (
            <>
              <SettingsLink
                to="/people"
                label="People and groups"
                icon={<IconUsers {...ICON} />}
                onClick={close}
              />
              <SettingsLink to="/api-keys" label="API keys" icon={<IconKey {...ICON} />} onClick={close} />
              <SettingsLink to="/audit" label="Audit log" icon={<IconHistory {...ICON} />} onClick={close} />
            </>
          )}
          {caller.person && (
            <SettingsLink
              to="/tokens"
              label="Personal tokens"
              icon={<IconLock {...ICON} />}
              onClick={close}
            />
          )}
        </div>
        <Text size="xs" c="dimmed" mt="auto">
          {session.kind === 'person'
            ? `Signed in as ${caller.name ?? '…'}.`
            : 'Signed in with an API key, for this tab only.'}
        </Text>
      </AppShell.Navbar>
      <AppShell.Main>
        <Routes>
          <Route path="/" element={<Landing />} />
          <Route path="/projects" element={<ProjectsPage />} />
          <Route path="/projects/:projectId" element={<Navigate to="ask" replace />} />
          <Route path="/projects/:projectId/documents" element={<DocumentsPage />} />
          <Route path="/projects/:projectId/documents/:documentId" element={<ChunksPage />} />
          <Route path="/projects/:projectId/search" element={<SearchPage />} />
          <Route path="/projects/:projectId/ask" element={<AskPage />} />
          <Route path="/projects/:projectId/sources" element={<SourcesPage />} />
          <Route
            path="/projects/:projectId/access"
            element={
              projectAdmin ? (
                <ProjectAccessPage />
              ) : caller.known ? (
                <Empty title="Not available">A project's access is managed by its ADMINs.</Empty>
              ) : null
            }
          />
          <Route path="/tokens" element={<TokensPage />} />
          <Route
            path="/people"
            element={
              admin ? (
                <PeoplePage />
              ) : caller.known ? (
                <Empty title="Not available">People are managed by ADMINs.</Empty>
              ) : null
            }
          />
          <Route
            path="/audit"
            element={
              admin ? (
                <AuditPage />
              ) : caller.known ? (
                <Empty title="Not available">The audit log is for ADMINs.</Empty>
              ) : null
            }
          />
          <Route
            path="/projects/:projectId/gaps"
            element={
              projectAdmin ? (
                <GapsPage />
              ) : caller.known ? (
                <Empty title="Not available">Content gaps are shown to ADMIN keys.</Empty>
              ) : null
            }
          />
          <Route
            path="/api-keys"
            element={
              admin ? (
                <ApiKeysPage />
              ) : caller.known ? (
                <Empty title="Not available">API keys are managed with an ADMIN key.</Empty>
              ) : null
            }
          />
          <Route
            path="*"
            element={<Empty title="Page not found">There is no page at {location.pathname}.</Empty>}
          />
        </Routes>
      </AppShell.Main>
    </AppShell>
  );
}

/** A navigation entry of a page outside any project, active on that page. */
function SettingsLink({
  to,
  label,
  icon,
  onClick,
}: {
  to: string;
  label: string;
  icon: ReactNode;
  onClick: () => void;
}) {
  const location = useLocation();
  return (
    <NavLink
      component={Link}
      to={to}
      label={label}
      leftSection={icon}
      active={location.pathname === to}
      onClick={onClick}
    />
  );
}
