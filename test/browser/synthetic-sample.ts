/**
 * A seeded set of documents with planted near-duplicates, as many as a test asks for: the browser
 * tests' prepared drops, whose groups are known. (The demo's own sample is real text.)
 */

/** One named text. */
export interface SampleDocument {
  readonly name: string;
  readonly text: string;
}

/** The documents, and the positions of the members of each planted group, ascending. */
export interface Sample {
  readonly documents: readonly SampleDocument[];
  readonly plantedGroups: readonly (readonly number[])[];
}

/** How many documents to make. */
export interface SampleOptions {
  /** Distinct documents. */
  readonly originals: number;
  /** How many of the originals get edited copies (one to three each). */
  readonly groups: number;
  readonly seed: number;
}

// Plain words rather than real prose: unrelated documents then share almost no 3-word shingle,
// which is what real unrelated documents do too.
const WORDS = (
  'account action after again against answer area around base because become before begin ' +
  'behind belong between big bill board body book both bring build business call camp capital ' +
  'carry case catch cause center change check child choose city class clear close coast cold ' +
  'color common company control corner cost country course cover create cross current cut dark ' +
  'data deal decide deep design detail develop direct discover doctor draw drive early earth east ' +
  'edge effect energy engine enough enter even evening event every example expect experience ' +
  'face fact fall family far farm fast field figure fill final find fire firm floor follow force ' +
  'forest form free friend front full future game garden gather general glass goal green ground ' +
  'group grow half hand hard heavy help high hill history hold home hope horse hour house human ' +
  'idea image include island issue join judge keep kind king land language large late laugh law ' +
  'lead learn leave letter level light line list listen local long machine main major manage map ' +
  'market matter measure meet member memory method middle mind minute model modern moment money ' +
  'month morning mountain move music nation nature near network night north note number ocean ' +
  'offer office open order other page paper part party pass past pattern people period person ' +
  'picture piece place plan plant play point policy power present press price problem process ' +
  'produce project public quick quiet rain range rate reach read ready reason record region ' +
  'remember report rest result return river road rock room rule run safe sail scale school ' +
  'science season second section seed sense serve settle shape share ship short side sign simple ' +
  'single size sleep slow small snow social soft soil solve sound source south space speak ' +
  'special speed spring square stand star start state station step stone store story street ' +
  'strong study subject summer supply surface system table teach team test thought time today ' +
  'total touch town track trade travel tree trouble true turn type unit valley value village ' +
  'voice wait walk wall watch water wave weather week west wheel while window winter wonder wood ' +
  'word work world write year young'
).split(' ');

const TOPICS = ['report', 'minutes', 'memo', 'notes', 'proposal', 'review', 'letter', 'summary'];

/** mulberry32: small, seedable, and the same in every engine. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: Random, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));

function sentence(random: Random): string[] {
  const words = Array.from({ length: between(random, 7, 16) }, () => pick(random, WORDS));
  words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
  words[words.length - 1] += '.';
  return words;
}

/** Paragraphs of sentences of words, about 350 to 700 words in all. */
function article(random: Random): string[][][] {
  return Array.from({ length: between(random, 5, 7) }, () => Array.from({ length: between(random, 5, 7) }, () => sentence(random)));
}

const render = (paragraphs: readonly (readonly (readonly string[])[])[]): string =>
  paragraphs.map((sentences) => sentences.map((words) => words.join(' ')).join(' ')).join('\n\n') + '\n';

/** The kinds of copy a real collection has: a few words changed, a line added, reformatted. */
const EDITS: readonly { readonly suffix: string; readonly apply: (doc: string[][][], random: Random) => string }[] = [
  {
    suffix: ' (edited)',
    apply: (doc, random) => {
      const copy = doc.map((p) => p.map((s) => [...s]));
      for (let edits = between(random, 1, 2); edits > 0; edits--) {
        const words = pick(random, pick(random, copy));
        const at = between(random, 1, words.length - 2);
        words[at] = pick(random, WORDS);
      }
      return render(copy);
    },
  },
  {
    suffix: ' (signed)',
    apply: (doc) => `${render(doc)}\nKind regards, the editorial team.\n`,
  },
  {
    suffix: ' (copy)',
    // Case, spacing and line breaks change; normalisation makes these exact duplicates.
    apply: (doc) => render(doc).toUpperCase().replace(/\n\n/g, '\n\n\n').replace(/\. /g, '.  '),
  },
];

/**
 * Makes `originals` unrelated documents and edited copies of the first `groups` of them,
 * shuffled together. The same options always give the same documents.
 */
export function makeSample({ originals, groups, seed }: SampleOptions): Sample {
  const random = generator(seed);
  const entries: { name: string; text: string; group: number }[] = [];
  for (let i = 0; i < originals; i++) {
    const doc = article(random);
    const name = `${pick(random, TOPICS)}-${String(i + 1).padStart(4, '0')}`;
    entries.push({ name: `${name}.txt`, text: render(doc), group: i < groups ? i : -1 });
    if (i >= groups) continue;
    const copies = between(random, 1, EDITS.length);
    const start = between(random, 0, EDITS.length - 1);
    for (let c = 0; c < copies; c++) {
      const edit = EDITS[(start + c) % EDITS.length]!;
      entries.push({ name: `${name}${edit.suffix}.txt`, text: edit.apply(doc, random), group: i });
    }
  }
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [entries[i], entries[j]] = [entries[j]!, entries[i]!];
  }
  const plantedGroups: number[][] = Array.from({ length: groups }, () => []);
  entries.forEach((entry, position) => {
    if (entry.group >= 0) plantedGroups[entry.group]!.push(position);
  });
  return { documents: entries.map(({ name, text }) => ({ name, text })), plantedGroups };
}
