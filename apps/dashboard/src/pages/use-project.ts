import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { gql } from '../api/client';
import { rememberProject } from '../api/last-project';
import { ProjectsDocument } from '@trove/api-client/browser';

/** The project named in the URL (from the cached project list), remembered as the last one opened. */
export function useProject() {
  const { projectId } = useParams<{ projectId: string }>();
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => gql(ProjectsDocument) });
  const project = projects.data?.projects.find((p) => p.id === projectId);
  const found = project !== undefined;
  useEffect(() => {
    if (found && projectId) rememberProject(projectId);
  }, [found, projectId]);
  return { projectId: projectId!, project, projects };
}
