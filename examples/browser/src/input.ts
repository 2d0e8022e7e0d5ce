/** Turning what the user gives (dropped or chosen files, pasted text) into inputs for the worker. */

import type { Input } from './protocol.js';

/** Files as worker inputs; the worker reads them, so large files are never read on the page. */
export const fileInputs = (files: ArrayLike<File>): Input[] => Array.from(files, (file) => ({ kind: 'file', file }));

/**
 * Pasted text as documents: a blank line separates one document from the next. `first` numbers
 * the names on from earlier pastes.
 */
export function pastedInputs(text: string, first: number): Input[] {
  return text
    .split(/\r?\n[ \t]*\r?\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part, i) => ({ kind: 'text', name: `pasted text ${first + i}`, text: part }));
}

/**
 * Calls `onFiles` with the files dropped on `zone`, and marks the zone while something is
 * dragged over it.
 */
export function acceptDrops(zone: HTMLElement, onFiles: (files: File[]) => void): void {
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
    const files = Array.from(event.dataTransfer?.files ?? []);
    if (files.length > 0) onFiles(files);
  });
}
