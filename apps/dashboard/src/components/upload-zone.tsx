import { Badge, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { supportedFormatsText, UPLOAD_ACCEPT } from '@trove/api-client/browser';
import { useRef, useState, type DragEvent } from 'react';
import { errorMessage } from '../api/errors';
import { uploadDocument } from '../api/upload';

interface FileUpload {
  key: string;
  name: string;
  progress: number;
  state: 'uploading' | 'done' | 'failed';
  error?: string;
}

/** Drag-and-drop (or pick) several files; each uploads on its own with its progress shown. */
export function UploadZone({ projectId, onUploaded }: { projectId: string; onUploaded: () => void }) {
  const [uploads, setUploads] = useState<FileUpload[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  function update(key: string, change: Partial<FileUpload>) {
    setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...change } : u)));
  }

  function start(files: FileList | File[]) {
    for (const file of Array.from(files)) {
      const key = `${file.name}-${Date.now()}-${Math.random()}`;
      setUploads((all) => [{ key, name: file.name, progress: 0, state: 'uploading' }, ...all]);
      uploadDocument(projectId, file, (progress) => update(key, { progress }))
        .then(() => {
          update(key, { state: 'done', progress: 1 });
          onUploaded();
        })
        .catch((error: unknown) => update(key, { state: 'failed', error: errorMessage(error) }));
    }
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    if (event.dataTransfer.files.length) start(event.dataTransfer.files);
  }

  return (
    <Stack gap="xs">
      <Paper
        withBorder
        p="lg"
        data-testid="upload-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        style={{
          borderStyle: 'dashed',
          borderWidth: 2,
          borderColor: over ? 'var(--mantine-color-indigo-5)' : undefined,
          background: over ? 'var(--mantine-color-indigo-0)' : undefined,
        }}
      >
        <Group justify="space-between" wrap="wrap" gap="sm">
          <div>
            <Text fw={600}>Drop files here to upload</Text>
            <Text size="sm" c="dimmed">
              {supportedFormatsText()}, read by OCR; several at once.
            </Text>
          </div>
          <Button variant="light" onClick={() => input.current?.click()}>
            Choose files
          </Button>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            accept={UPLOAD_ACCEPT}
            aria-label="Files to upload"
            onChange={(event) => {
              if (event.currentTarget.files) start(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />
        </Group>
      </Paper>
      {uploads.length > 0 && (
        <Stack gap={6} aria-label="Uploads">
          {uploads.map((upload) => (
            <div key={upload.key} data-testid="upload-row">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" truncate>
                  {upload.name}
                </Text>
                <Badge
                  size="sm"
                  variant="light"
                  color={upload.state === 'failed' ? 'red' : upload.state === 'done' ? 'green' : 'blue'}
                >
                  {upload.state === 'uploading' ? `${Math.round(upload.progress * 100)}%` : upload.state}
                </Badge>
              </Group>
              <Progress
                value={upload.progress * 100}
                color={upload.state === 'failed' ? 'red' : upload.state === 'done' ? 'green' : 'blue'}
                size="sm"
                aria-label={`${upload.name} upload progress`}
              />
              {upload.error && (
                <Text size="xs" c="red">
                  {upload.error}
                </Text>
              )}
            </div>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
