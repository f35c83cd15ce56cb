import type { StepCounter } from "../step-counter.js";
import { wordEnd } from "../text/index.js";
import type { LabelEntry, LabelIndex } from "./label-index.js";

/** One distinct folded label text and every table entry that has it. */
export interface AutomatonPattern {
  pattern: string;
  /** True when the label starts with a word character (`labelKey` keys it by words, not by a symbol). */
  wordStart: boolean;
  symbolic: boolean;
  entries: LabelEntry[];
}

/**
 * An Aho–Corasick automaton over the UTF-16 code units of a source's distinct label texts, so a claim is
 * read once, left to right, however many labels share a word or a prefix. Nodes are trie nodes; a node's
 * children are a short list, or a map once it has many (a root under thousands of labels).
 */
export interface LabelAutomaton {
  patterns: AutomatonPattern[];
  /** Per node: the longest proper suffix that is also a trie node. */
  failure: Int32Array;
  /** Per node: the pattern ending exactly there, or -1. */
  output: Int32Array;
  /** Per node: the nearest node along the failure links that ends a pattern, or -1. */
  nextOutput: Int32Array;
  /** Per node: its depth, the length of the text it spells. */
  depth: Int32Array;
  step(node: number, code: number): number;
}

const LIST_LIMIT = 8;

/** Builds the automaton of `index`'s labels in time linear in their total length. */
export function buildLabelAutomaton(index: LabelIndex, counter?: StepCounter): LabelAutomaton {
  const byPattern = new Map<string, AutomatonPattern>();
  for (const bucket of index.values()) {
    for (const entry of bucket) {
      let found = byPattern.get(entry.pattern);
      if (found === undefined) {
        found = {
          pattern: entry.pattern,
          wordStart: wordEnd(entry.pattern, 0) > 0,
          symbolic: entry.symbolic,
          entries: [],
        };
        byPattern.set(entry.pattern, found);
      }
      found.entries.push(entry);
    }
  }
  const patterns = [...byPattern.values()];
  let capacity = 1;
  for (const { pattern } of patterns) capacity += pattern.length;

  // The trie, as parallel arrays sized for the worst case (one node per label character): each node's first
  // child, next sibling and the code unit leading to it. Typed arrays, so building allocates a few blocks.
  const firstChild = new Int32Array(capacity).fill(-1);
  const nextSibling = new Int32Array(capacity).fill(-1);
  const codeOf = new Int32Array(capacity).fill(-1);
  const childCount = new Int32Array(capacity);
  const depth = new Int32Array(capacity);
  const output = new Int32Array(capacity).fill(-1);
  const maps: (Map<number, number> | undefined)[] = [];
  // Which code units occur in some label: reading any other one leads back to the root at once.
  const inPatterns = new Uint8Array(65_536);
  let nodes = 1;
  let steps = 0;

  const child = (node: number, code: number): number => {
    const map = maps[node];
    if (map !== undefined) return map.get(code) ?? -1;
    for (let each = firstChild[node] as number; each >= 0; each = nextSibling[each] as number) {
      if (codeOf[each] === code) return each;
    }
    return -1;
  };

  for (let id = 0; id < patterns.length; id += 1) {
    const { pattern } = patterns[id] as AutomatonPattern;
    let node = 0;
    for (let index = 0; index < pattern.length; index += 1) {
      const code = pattern.charCodeAt(index);
      inPatterns[code] = 1;
      let next = child(node, code);
      if (next < 0) {
        next = nodes;
        nodes += 1;
        nextSibling[next] = firstChild[node] as number;
        codeOf[next] = code;
        depth[next] = (depth[node] as number) + 1;
        firstChild[node] = next;
        const count = (childCount[node] as number) + 1;
        childCount[node] = count;
        const map = maps[node];
        if (map !== undefined) map.set(code, next);
        else if (count > LIST_LIMIT) {
          const built = new Map<number, number>();
          for (let each = next; each >= 0; each = nextSibling[each] as number) {
            built.set(codeOf[each] as number, each);
          }
          maps[node] = built;
        }
      }
      node = next;
    }
    output[node] = id;
    steps += pattern.length;
  }

  const failure = new Int32Array(nodes);
  const nextOutput = new Int32Array(nodes).fill(-1);
  // The root's children by ASCII code unit, read directly: most failure walks end at the root.
  const rootChild = new Int32Array(128).fill(-1);
  for (let each = firstChild[0] as number; each >= 0; each = nextSibling[each] as number) {
    const code = codeOf[each] as number;
    if (code < 128) rootChild[code] = each;
  }
  const step = (node: number, code: number): number => {
    if (inPatterns[code] === 0) return 0;
    let state = node;
    while (state !== 0) {
      const next = child(state, code);
      if (next >= 0) return next;
      state = failure[state] as number;
    }
    const next = code < 128 ? (rootChild[code] as number) : child(0, code);
    return next >= 0 ? next : 0;
  };

  // Breadth first, so every node's failure link is known before its children's.
  const queue = new Int32Array(nodes);
  let tail = 0;
  for (let each = firstChild[0] as number; each >= 0; each = nextSibling[each] as number)
    queue[tail++] = each;
  for (let head = 0; head < tail; head += 1) {
    const node = queue[head] as number;
    for (let each = firstChild[node] as number; each >= 0; each = nextSibling[each] as number) {
      const code = codeOf[each] as number;
      let state = failure[node] as number;
      let target = -1;
      for (;;) {
        steps += 1;
        const next = child(state, code);
        if (next >= 0) {
          target = next;
          break;
        }
        if (state === 0) break;
        state = failure[state] as number;
      }
      const link = target < 0 ? 0 : target;
      failure[each] = link;
      nextOutput[each] = (output[link] as number) >= 0 ? link : (nextOutput[link] as number);
      queue[tail++] = each;
    }
  }
  if (counter !== undefined) counter.steps += steps + nodes;
  return { patterns, failure, output, nextOutput, depth, step };
}
