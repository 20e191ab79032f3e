import { apiErrorFrom, NETWORK_ERROR_CODE, TroveApiError } from '@trove/api-client/browser';
import { authHeaders } from './session';

export interface UploadedDocument {
  id: string;
  fileName: string;
  status: string;
}

/**
 * Uploads one file through the REST route (`POST /v1/projects/:id/documents`, field `file`),
 * reporting progress from 0 to 1. XMLHttpRequest, because fetch cannot report upload progress.
 */
export function uploadDocument(
  projectId: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<UploadedDocument> {
  return postForm(`/v1/projects/${encodeURIComponent(projectId)}/documents`, file, {}, onProgress);
}

export interface UploadedArchive {
  source: { id: string; name: string };
  run: { id: string; status: string };
}

/**
 * Uploads a zipped folder (`POST /v1/projects/:id/archives`): it becomes a folder source and its
 * first sync starts at once.
 */
export function uploadArchive(
  projectId: string,
  file: File,
  name: string,
  onProgress: (fraction: number) => void,
): Promise<UploadedArchive> {
  return postForm(`/v1/projects/${encodeURIComponent(projectId)}/archives`, file, { name }, onProgress);
}

function postForm<T>(
  url: string,
  file: File,
  fields: Record<string, string>,
  onProgress: (fraction: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    // The key, or a signed-in person's CSRF token (their session cookie goes along by itself).
    for (const [name, value] of Object.entries(authHeaders())) request.setRequestHeader(name, value);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve(request.response as T);
      } else reject(apiErrorFrom(request.status, request.response));
    };
    request.onerror = () =>
      reject(new TroveApiError('The upload could not reach the API', NETWORK_ERROR_CODE));
    const form = new FormData();
    // Fields before the file: a streaming multipart parser has read them when the file arrives.
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', file, file.name);
    request.send(form);
  });
}
