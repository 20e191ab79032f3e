import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { gql } from '../api/client';
import { ProjectsDocument } from '@trove/api-client/browser';

/** The project named in the URL (from the cached project list). */
export function useProject() {
  const { projectId } = useParams<{ projectId: string }>();
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => gql(ProjectsDocument) });
  const project = projects.data?.projects.find((p) => p.id === projectId);
  return { projectId: projectId!, project, projects };
}
