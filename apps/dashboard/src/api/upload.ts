import { ApiError, apiErrorFrom } from './errors';
import { storedApiKey } from './session';

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
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/v1/projects/${encodeURIComponent(projectId)}/documents`);
    const key = storedApiKey();
    if (key) request.setRequestHeader('x-api-key', key);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve(request.response as UploadedDocument);
      } else reject(apiErrorFrom(request.status, request.response));
    };
    request.onerror = () => reject(new ApiError('The upload could not reach the API', 'NETWORK'));
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}
