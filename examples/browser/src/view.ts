/** The list of groups, built with DOM calls only: names and texts are the user's, never markup. */

import { numDifferingBits } from 'simhash-wasm/slim';
import { count } from './count.js';
import type { DocumentInfo } from './protocol.js';

/** More groups, or more documents set aside, than this are summarised rather than drawn. */
const SHOWN_GROUPS = 200;
const SHOWN_ASIDE = 200;

function tag<K extends keyof HTMLElementTagNameMap>(name: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(name);
  if (className !== '') node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A fingerprint as 16 hex digits, the form the export uses too. */
export const hex = (fingerprint: bigint): string => fingerprint.toString(16).padStart(16, '0');

function memberRow(info: DocumentInfo, fingerprint: bigint, distance: number | null): HTMLLIElement {
  const row = tag('li', 'member');
  const head = tag('div', 'member-head');
  head.append(
    tag('span', distance === null ? 'badge first' : 'badge', distance === null ? 'first' : count(distance, 'bit')),
    tag('span', 'name', info.name),
    tag('code', 'fingerprint', hex(fingerprint)),
  );
  row.append(head, tag('p', 'snippet', info.snippet));
  return row;
}

/**
 * Replaces the contents of `list` with one card per group (positions, first member first), each
 * member with its distance from the group's first document, or with `whenNone` if there is no
 * group.
 */
export function renderGroups(
  list: HTMLOListElement,
  groups: readonly (readonly number[])[],
  documents: readonly DocumentInfo[],
  fingerprints: BigUint64Array,
  whenNone: string,
): void {
  if (groups.length === 0) {
    list.replaceChildren(tag('li', 'none', whenNone));
    return;
  }
  const cards = groups.slice(0, SHOWN_GROUPS).map((group, index) => {
    const card = tag('li', 'group');
    const first = fingerprints[group[0]!]!;
    const distances = group.map((position) => numDifferingBits(first, fingerprints[position]!));
    const title = tag('h3', '', `Group ${index + 1}`);
    title.append(tag('span', 'group-meta', ` · ${count(group.length, 'document')} · up to ${count(Math.max(...distances), 'bit')} from the first`));
    const members = tag('ol', 'members');
    members.append(...group.map((position, i) => memberRow(documents[position]!, fingerprints[position]!, i === 0 ? null : distances[i]!)));
    card.append(title, members);
    return card;
  });
  if (groups.length > SHOWN_GROUPS) cards.push(tag('li', 'more', `…and ${count(groups.length - SHOWN_GROUPS, 'more group')} (export the fingerprints to see them all).`));
  list.replaceChildren(...cards);
}

/**
 * Replaces the contents of `list` with one row per name (and why it is set aside, when given),
 * and hides `block`, the list's section, when there is none.
 */
export function renderAside(block: HTMLElement, list: HTMLUListElement, items: readonly { readonly name: string; readonly reason?: string }[]): void {
  block.hidden = items.length === 0;
  const rows = items.slice(0, SHOWN_ASIDE).map(({ name, reason }) => {
    const row = tag('li', '');
    row.append(tag('span', 'name', name));
    if (reason !== undefined) row.append(tag('span', 'reason', ` · ${reason}`));
    return row;
  });
  if (items.length > SHOWN_ASIDE) rows.push(tag('li', 'more', `…and ${(items.length - SHOWN_ASIDE).toLocaleString('en')} more.`));
  list.replaceChildren(...rows);
}
