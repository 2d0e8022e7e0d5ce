// How the demo page reads a paste (the page itself is driven in Chromium by demo.test.ts).
import { describe, expect, it } from 'vitest';
import { autoSplit, pastedInputs } from '../../examples/browser/src/input.js';

const texts = (text: string, split: Parameters<typeof pastedInputs>[1]): string[] =>
  pastedInputs(text, split, 1).map((input) => (input.kind === 'text' ? input.text : ''));

describe('a paste', () => {
  it('by default splits at lines of ---, else at blank lines, else at each line', () => {
    expect(autoSplit('one\n---\ntwo\n\nthree')).toBe('dashes');
    expect(texts('one\n\ntwo\n---\nthree', 'auto')).toEqual(['one\n\ntwo', 'three']);
    expect(autoSplit('first text\nstill first\n\n \nsecond text')).toBe('paragraphs');
    expect(texts('first text\nstill first\r\n\r\n \nsecond text\n\n', 'auto')).toEqual(['first text\nstill first', 'second text']);
    expect(autoSplit('title one\ntitle two\n')).toBe('lines');
    expect(texts('title one\ntitle two\n\n', 'auto')).toEqual(['title one', 'title two']);
    // Blank lines around a paste are not separators.
    expect(autoSplit('\n\none text over\ntwo lines\n\n')).toBe('lines');
  });

  it('is one document, or split as chosen', () => {
    const text = 'a\n\nb\nc\n---\nd';
    expect(texts(text, 'whole')).toEqual([text]);
    expect(texts(text, 'dashes')).toEqual(['a\n\nb\nc', 'd']);
    expect(texts(text, 'paragraphs')).toEqual(['a', 'b\nc\n---\nd']);
    expect(texts(text, 'lines')).toEqual(['a', 'b', 'c', '---', 'd']);
  });

  it('numbers its documents on from earlier pastes, and drops blank ones', () => {
    expect(pastedInputs('x\n\n\n\ny', 'paragraphs', 4).map((input) => input.name)).toEqual(['pasted text 4', 'pasted text 5']);
    expect(pastedInputs(' \n\t\n', 'auto', 1)).toEqual([]);
  });
});
