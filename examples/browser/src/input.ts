/** Turning what the user gives (dropped or chosen files and folders, pasted text) into inputs for the worker. */

import type { Input, Skipped } from './protocol.js';

/** What a drop or a choice gave: files to fingerprint, and entries that could not be opened. */
export interface Gathered {
  readonly inputs: Input[];
  readonly skipped: Skipped[];
}

/**
 * Chosen files as worker inputs, named by their path inside a chosen folder (`webkitRelativePath`)
 * when there is one. The worker reads them, so large files are never read on the page.
 */
export const chosenFiles = (files: ArrayLike<File>): Input[] =>
  Array.from(files, (file) => ({ kind: 'file', name: file.webkitRelativePath || file.name, file }));

/** How pasted text becomes documents. */
export type PasteSplit = 'auto' | 'whole' | 'dashes' | 'paragraphs' | 'lines';

/** A line of three or more dashes and nothing else, as between Markdown sections. */
const DASHES = /^[ \t]*-{3,}[ \t]*$/m;
/** One or more blank lines. */
const BLANK_LINES = /\r?\n[ \t]*\r?\n(?:[ \t]*\r?\n)*/;
const LINES = /\r?\n/;

/**
 * How `auto` reads a paste: at lines of `---` if it has one, else at blank lines if it has one,
 * else one document per line. Pasting several texts is how people try a dedup tool, and one
 * document alone can have no near-duplicate.
 */
export function autoSplit(text: string): Exclude<PasteSplit, 'auto'> {
  if (DASHES.test(text)) return 'dashes';
  if (BLANK_LINES.test(text.trim())) return 'paragraphs';
  return 'lines';
}

/**
 * Pasted text as documents: all of it one document (`whole`, blank lines and all), or split at
 * each line of `---` (`dashes`), at blank lines (`paragraphs`), or each line one document
 * (`lines`); `auto` picks one of the last three by {@link autoSplit}. Blank parts are dropped.
 * `first` numbers the names on from earlier pastes.
 */
export function pastedInputs(text: string, split: PasteSplit, first: number): Input[] {
  const how = split === 'auto' ? autoSplit(text) : split;
  const parts = how === 'whole' ? [text] : text.split(how === 'dashes' ? DASHES : how === 'paragraphs' ? BLANK_LINES : LINES);
  return parts
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part, i) => ({ kind: 'text', name: `pasted text ${first + i}`, text: part }));
}

const fileOf = (entry: FileSystemFileEntry): Promise<File> => new Promise((resolve, reject) => entry.file(resolve, reject));

/** Every entry of a folder: a reader gives them in batches (of 100 in Chromium) until an empty one. */
async function children(folder: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = folder.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    all.push(...batch);
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Adds the files under `entry` to `into`, each named by its path in the drop. */
async function walk(entry: FileSystemEntry, into: Gathered): Promise<void> {
  const name = entry.fullPath.replace(/^\//, '') || entry.name;
  try {
    if (entry.isFile) {
      into.inputs.push({ kind: 'file', name, file: await fileOf(entry as FileSystemFileEntry) });
    } else if (entry.isDirectory) {
      for (const child of await children(entry as FileSystemDirectoryEntry)) await walk(child, into);
    }
  } catch (error) {
    into.skipped.push({ name, reason: `could not be read (${messageOf(error)})` });
  }
}

/** The files of a drop, folders walked. */
async function gather(dropped: readonly (FileSystemEntry | File)[]): Promise<Gathered> {
  const gathered: Gathered = { inputs: [], skipped: [] };
  for (const item of dropped) {
    if (item instanceof File) gathered.inputs.push({ kind: 'file', name: item.name, file: item });
    else await walk(item, gathered);
  }
  return gathered;
}

/**
 * Calls `onDrop` with the files dropped on `zone`, dropped folders walked, and marks the zone
 * while something is dragged over it.
 */
export function acceptDrops(zone: HTMLElement, onDrop: (gathering: Promise<Gathered>) => void): void {
  let depth = 0;
  zone.addEventListener('dragenter', (event) => {
    event.preventDefault();
    depth++;
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => {
    // Entering a child fires dragleave on the parent first; count to know when we really left.
    if (--depth <= 0) {
      depth = 0;
      zone.classList.remove('dragging');
    }
  });
  zone.addEventListener('dragover', (event) => event.preventDefault());
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    depth = 0;
    zone.classList.remove('dragging');
    // The items are readable only during the event: take the entries (or, where the browser
    // gives none, as for a script's DataTransfer, the files) now, and walk them afterwards.
    const dropped = Array.from(event.dataTransfer?.items ?? []).flatMap((item) => {
      if (item.kind !== 'file') return [];
      const entry = item.webkitGetAsEntry();
      const file = entry === null ? item.getAsFile() : null;
      return entry ?? file ?? [];
    });
    if (dropped.length > 0) onDrop(gather(dropped));
  });
}
