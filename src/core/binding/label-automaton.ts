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
 * child for a code unit is found in one hash table of all (node, code unit) pairs.
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

// Groups the index's entries by their label text: one automaton pattern per distinct text.
function patternsOf(index: LabelIndex): AutomatonPattern[] {
  const byPattern = new Map<string, AutomatonPattern>();
  const patterns: AutomatonPattern[] = [];
  for (const bucket of index.values()) {
    for (const entry of bucket) {
      const found = byPattern.get(entry.pattern);
      if (found !== undefined) {
        found.entries.push(entry);
        continue;
      }
      const pattern: AutomatonPattern = {
        pattern: entry.pattern,
        wordStart: wordEnd(entry.pattern, 0) > 0,
        symbolic: entry.symbolic,
        entries: [entry],
      };
      byPattern.set(entry.pattern, pattern);
      patterns.push(pattern);
    }
  }
  return patterns;
}

/**
 * Builds the automaton of `index`'s labels in time linear in their total length (expected: children are
 * found through a hash table with linear probing, kept at most half full).
 */
export function buildLabelAutomaton(index: LabelIndex, counter?: StepCounter): LabelAutomaton {
  const patterns = patternsOf(index);
  let capacity = 1;
  for (const { pattern } of patterns) capacity += pattern.length;

  // The trie, as typed arrays sized for the worst case (one node per label character), so building
  // allocates a few blocks and no object per node. Per node, three slots: its first child, its next
  // sibling (children are listed for the breadth-first pass) and the code unit leading to it.
  // The children by (node, code unit): per slot the node (-1 when free), the code unit and the child.
  let bits = 1;
  while (1 << bits < capacity * 2) bits += 1;
  const mask = (1 << bits) - 1;
  const shift = 32 - bits;
  // The arrays the automaton keeps are views of one block: a typed array of more than a few entries is
  // allocated outside the heap, and one allocation per source costs less than one per array. `links`
  // is only needed while building, so it stays apart and is freed after.
  const links = new Int32Array(capacity * 3).fill(-1);
  const block = new Int32Array(capacity * 2 + (mask + 1) * 3 + 256);
  const depth = block.subarray(0, capacity);
  const output = block.subarray(capacity, capacity * 2).fill(-1);
  const slots = block.subarray(capacity * 2, capacity * 2 + (mask + 1) * 3).fill(-1);
  const end = slots.length;
  const slotOf = (node: number, code: number): number =>
    (Math.imul(node * 65_599 + code, 0x9e3779b1) >>> shift) * 3;
  // Which ASCII code units occur in some label: reading any other one leads back to the root at once.
  // Other code units take the failure walk, which ends at the root just as well (a 64 KB table per
  // source cost more to make than the walks it saves).
  const inPatterns = block.subarray(block.length - 256, block.length - 128);
  let nodes = 1;
  let steps = 0;

  // The slot of (node, code unit): the one holding it, else the free one where it would go.
  const slotFor = (node: number, code: number): number => {
    let slot = slotOf(node, code);
    for (let holder = slots[slot] as number; holder >= 0; holder = slots[slot] as number) {
      if (holder === node && slots[slot + 1] === code) return slot;
      slot = slot + 3 === end ? 0 : slot + 3;
    }
    return slot;
  };
  const child = (node: number, code: number): number => {
    const slot = slotFor(node, code);
    return (slots[slot] as number) < 0 ? -1 : (slots[slot + 2] as number);
  };

  for (let id = 0; id < patterns.length; id += 1) {
    const { pattern } = patterns[id] as AutomatonPattern;
    let node = 0;
    for (let index = 0; index < pattern.length; index += 1) {
      const code = pattern.charCodeAt(index);
      if (code < 128) inPatterns[code] = 1;
      const slot = slotFor(node, code);
      let next = slots[slot + 2] as number;
      if ((slots[slot] as number) < 0) {
        next = nodes;
        nodes += 1;
        slots[slot] = node;
        slots[slot + 1] = code;
        slots[slot + 2] = next;
        links[next * 3 + 1] = links[node * 3] as number;
        links[next * 3 + 2] = code;
        links[node * 3] = next;
        depth[next] = (depth[node] as number) + 1;
      }
      node = next;
    }
    output[node] = id;
    steps += pattern.length;
  }

  // The failure pass's kept arrays, sized by the nodes made: one block again.
  const failureBlock = new Int32Array(nodes * 2);
  const failure = failureBlock.subarray(0, nodes);
  const nextOutput = failureBlock.subarray(nodes, nodes * 2).fill(-1);
  // The root's children by ASCII code unit, read directly: most failure walks end at the root.
  const rootChild = block.subarray(block.length - 128).fill(-1);
  for (let each = links[0] as number; each >= 0; each = links[each * 3 + 1] as number) {
    const code = links[each * 3 + 2] as number;
    if (code < 128) rootChild[code] = each;
  }
  const step = (node: number, code: number): number => {
    if (code < 128 && inPatterns[code] === 0) return 0;
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
  for (let each = links[0] as number; each >= 0; each = links[each * 3 + 1] as number) queue[tail++] = each;
  for (let head = 0; head < tail; head += 1) {
    const node = queue[head] as number;
    for (let each = links[node * 3] as number; each >= 0; each = links[each * 3 + 1] as number) {
      const code = links[each * 3 + 2] as number;
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
