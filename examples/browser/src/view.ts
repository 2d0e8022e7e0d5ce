/** The list of groups, built with DOM calls only: names and texts are the user's, never markup. */

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

/** How a group's members compare with its first: in bits (SimHash) or in similarity (MinHash). */
export interface GroupMeasure {
  /** Each member's badge, the first's included ("first"). */
  readonly badges: readonly string[];
  /** The card's summary of the group: "up to 3 bits from the first". */
  readonly summary: string;
  /** What to show beside each member's name (its fingerprint), if anything. */
  readonly codes: readonly string[] | null;
}

function memberRow(info: DocumentInfo, badge: string, code: string | undefined, first: boolean): HTMLLIElement {
  const row = tag('li', 'member');
  const head = tag('div', 'member-head');
  head.append(tag('span', first ? 'badge first' : 'badge', badge), tag('span', 'name', info.name));
  if (code !== undefined) head.append(tag('code', 'fingerprint', code));
  row.append(head, tag('p', 'snippet', info.snippet));
  return row;
}

/**
 * Replaces the contents of `list` with one card per group (positions, first member first), each
 * member with how it compares with the group's first document as `measure` says, or with
 * `whenNone` if there is no group.
 */
export function renderGroups(
  list: HTMLOListElement,
  groups: readonly (readonly number[])[],
  documents: readonly DocumentInfo[],
  measure: (group: readonly number[]) => GroupMeasure,
  whenNone: string,
): void {
  if (groups.length === 0) {
    list.replaceChildren(tag('li', 'none', whenNone));
    return;
  }
  const cards = groups.slice(0, SHOWN_GROUPS).map((group, index) => {
    const card = tag('li', 'group');
    const { badges, summary, codes } = measure(group);
    const title = tag('h3', '', `Group ${index + 1}`);
    title.append(tag('span', 'group-meta', ` · ${count(group.length, 'document')} · ${summary}`));
    const members = tag('ol', 'members');
    members.append(...group.map((position, i) => memberRow(documents[position]!, badges[i]!, codes?.[i], i === 0)));
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
