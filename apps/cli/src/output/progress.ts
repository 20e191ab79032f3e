import { MultiBar, type SingleBar } from 'cli-progress';
import { formatBytes } from './render';
import type { OutStream } from './output';

/** Progress of the uploads of `documents add`: one bar for all bytes, one for the current file. */
export interface UploadBars {
  startFile(name: string, sizeBytes: number): void;
  /** Bytes of the current file sent so far. */
  sent(bytes: number): void;
  /** The current file is done (or failed): its bytes count as handled. */
  endFile(): void;
  stop(): void;
}

/** A count towards a total that may still grow (pages a sync has seen, documents being indexed). */
export interface CountBar {
  update(done: number, total: number, payload: Record<string, string | number>): void;
  stop(): void;
}

const BAR = {
  barCompleteChar: '█',
  barIncompleteChar: '░',
  hideCursor: true,
  clearOnComplete: false,
  barsize: 28,
};

function multiBar(stream: OutStream, format: string): MultiBar {
  return new MultiBar({
    ...BAR,
    format,
    stream: stream as NodeJS.WritableStream,
    fps: 10,
    noTTYOutput: false,
  });
}

/** Upload bars on a terminal; nothing at all otherwise. */
export function uploadBars(
  enabled: boolean,
  stream: OutStream,
  totalBytes: number,
  fileCount: number,
): UploadBars {
  if (!enabled)
    return {
      startFile: () => undefined,
      sent: () => undefined,
      endFile: () => undefined,
      stop: () => undefined,
    };
  const bars = multiBar(stream, '{label} [{bar}] {percentage}% | {done}/{size} {name}');
  const total = bars.create(Math.max(totalBytes, 1), 0, {
    label: 'total   ',
    done: formatBytes(0),
    size: formatBytes(totalBytes),
    name: `(0/${fileCount} files)`,
  });
  let file: SingleBar | undefined;
  let fileSize = 0;
  let before = 0;
  let filesDone = 0;
  const setTotal = (bytes: number) =>
    total.update(bytes, { done: formatBytes(bytes), name: `(${filesDone}/${fileCount} files)` });
  return {
    startFile(name, sizeBytes) {
      fileSize = sizeBytes;
      const payload = { label: 'uploading', done: formatBytes(0), size: formatBytes(sizeBytes), name };
      if (file) {
        file.setTotal(Math.max(sizeBytes, 1));
        file.update(0, payload);
      } else {
        file = bars.create(Math.max(sizeBytes, 1), 0, payload);
      }
    },
    sent(bytes) {
      file?.update(bytes, { done: formatBytes(bytes) });
      setTotal(before + bytes);
    },
    endFile() {
      file?.update(Math.max(fileSize, 1), { done: formatBytes(fileSize) });
      before += fileSize;
      filesDone += 1;
      setTotal(before);
    },
    stop() {
      bars.stop();
    },
  };
}

/** One count bar on a terminal (`format` may name the payload's fields); nothing otherwise. */
export function countBar(
  enabled: boolean,
  stream: OutStream,
  format: string,
  payload: Record<string, string | number>,
): CountBar {
  if (!enabled) return { update: () => undefined, stop: () => undefined };
  const bars = multiBar(stream, format);
  const bar = bars.create(1, 0, payload);
  return {
    update(done, total, next) {
      bar.setTotal(Math.max(total, 1));
      bar.update(done, next);
    },
    stop() {
      bars.stop();
    },
  };
}
