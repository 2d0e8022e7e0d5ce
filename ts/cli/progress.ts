/** A progress line on standard error, for runs long enough to need one, on terminals only. */

/** Reports progress and prints messages without garbling the progress line. */
export interface Progress {
  /** Counts bytes read and documents read so far. */
  advance(bytes: number, documents: number): void;
  /** Writes `text` (whole lines) to the stream, above the progress line if one is shown. */
  print(text: string): void;
  /** Replaces the progress line with `text` for a step that reports no progress of its own. */
  step(text: string): void;
  /** Removes the progress line. */
  finish(): void;
}

/** The parts of a `tty.WriteStream` used here; a plain stream has no `isTTY`. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): boolean;
}

/** When the line appears and how often it is redrawn. */
export interface ProgressTiming {
  /** A run shorter than this shows nothing. */
  readonly delayMs: number;
  readonly intervalMs: number;
  readonly now: () => number;
}

const DEFAULT_TIMING: ProgressTiming = { delayMs: 1000, intervalMs: 100, now: () => performance.now() };

/**
 * A progress line on `stream` when it is a terminal: a bar when `totalBytes` is known, counts
 * otherwise. Pipes and files get nothing but the messages, so logs stay clean.
 */
export function startProgress(
  stream: ProgressStream,
  totalBytes: number | undefined,
  timing: ProgressTiming = DEFAULT_TIMING,
): Progress {
  if (stream.isTTY !== true) {
    return { advance: () => {}, print: (text) => void stream.write(text), step: () => {}, finish: () => {} };
  }
  const started = timing.now();
  let lastDrawn = -Infinity;
  let shown = false;
  let bytes = 0;
  let documents = 0;

  let stepText: string | undefined;
  const line = (): string => {
    if (stepText !== undefined) return stepText;
    const counts = `${documents.toLocaleString('en')} documents  ${formatBytes(bytes)}`;
    if (totalBytes === undefined || totalBytes === 0) return counts;
    const share = Math.min(1, bytes / totalBytes);
    const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 50));
    const done = Math.round(share * width);
    return `[${'#'.repeat(done)}${'-'.repeat(width - done)}] ${(share * 100).toFixed(0).padStart(3)}%  ${counts} of ${formatBytes(totalBytes)}`;
  };
  const draw = (): void => {
    stream.write(`\r\x1b[2K${line()}`);
    shown = true;
  };
  const clear = (): void => {
    if (shown) stream.write('\r\x1b[2K');
  };

  return {
    advance(moreBytes, documentsSoFar) {
      bytes += moreBytes;
      documents = documentsSoFar;
      const now = timing.now();
      if (now - started >= timing.delayMs && now - lastDrawn >= timing.intervalMs) {
        lastDrawn = now;
        draw();
      }
    },
    print(text) {
      clear();
      stream.write(text);
      if (shown) draw();
    },
    step(text) {
      stepText = text;
      // Only a run already long enough to show the bar is worth a line for the next step.
      if (shown) draw();
    },
    finish() {
      clear();
      shown = false;
    },
  };
}

function formatBytes(bytes: number): string {
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}
