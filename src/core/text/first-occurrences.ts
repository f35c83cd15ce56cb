import type { StepCounter } from "../step-counter.js";

/**
 * The first occurrence of each of many id patterns in one id text, found in one pass (Aho–Corasick), so
 * a request's many distinct quotes against one source cost O(n + Σm), not O(quotes × n). Pattern ids are
 * in `[0, alphabetSize)`; a text id outside that range (say -1) matches nothing.
 *
 * The trie holds one node per distinct pattern prefix; the root keeps its children in a table over the
 * alphabet (the text is mostly read at the root), any other node its first child in two integer arrays and
 * any further ones in a map, so a lookup is O(1) expected. Failure links are
 * built breadth-first and the text is read once. A pattern ends at position i exactly when its node lies on
 * the dictionary-suffix chain of the state after i, so the first time it does is its first end, which for
 * a fixed length is its first start. Reported nodes are spliced out of those chains (a union–find over
 * the dictionary links, with path compression), so each pattern is reported once and no chain is walked
 * again past what it reported: steps are O((n + Σm) log Σm) in the worst case, about 3 per unit in
 * practice. The scan stops once every pattern is found.
 */
export function firstOccurrencesOfIds(
  text: Int32Array,
  patterns: readonly Int32Array[],
  alphabetSize: number,
  counter?: StepCounter,
): Int32Array {
  const firstStarts = new Int32Array(patterns.length).fill(-1);
  let capacity = 1;
  for (const pattern of patterns) capacity += pattern.length;
  const trie = new IdTrie(capacity, alphabetSize);
  let steps = 0;

  // The trie: each distinct pattern ends at one node; equal patterns share it.
  const endNodes = new Int32Array(patterns.length);
  const terminal = new Uint8Array(capacity);
  let distinctEnds = 0;
  patterns.forEach((pattern, index) => {
    steps += pattern.length + 1;
    if (pattern.length === 0) {
      endNodes[index] = -1;
      return;
    }
    let node = 0;
    for (const id of pattern) node = trie.childOrAdd(node, id);
    endNodes[index] = node;
    if (terminal[node] === 0) distinctEnds += 1;
    terminal[node] = 1;
  });

  // Failure links breadth-first; `dictionary[v]` is the nearest terminal node on v's failure chain (0: none).
  const nodeCount = trie.size;
  const failure = new Int32Array(nodeCount);
  const dictionary = new Int32Array(nodeCount);
  const queue = new Int32Array(nodeCount);
  let tail = 0;
  trie.forEachChild(0, (_, child) => {
    queue[tail++] = child;
  });
  for (let head = 0; head < tail; head += 1) {
    const node = queue[head] as number;
    trie.forEachChild(node, (id, child) => {
      queue[tail++] = child;
      let fallback = failure[node] as number;
      let target = trie.child(fallback, id);
      steps += 1;
      while (target < 0 && fallback !== 0) {
        fallback = failure[fallback] as number;
        target = trie.child(fallback, id);
        steps += 1;
      }
      const link = target < 0 ? 0 : target;
      failure[child] = link;
      dictionary[child] = terminal[link] === 1 ? link : (dictionary[link] as number);
    });
  }

  // `live[v]` leads up the dictionary chain to the nearest terminal not reported yet (itself when it is one
  // and unreported); the root, its own parent, stands for none.
  const live = new Int32Array(nodeCount);
  for (let node = 1; node < nodeCount; node += 1) {
    live[node] = terminal[node] === 1 ? node : (dictionary[node] as number);
  }
  const nearestUnreported = (from: number): number => {
    let root = from;
    while (live[root] !== root) {
      root = live[root] as number;
      steps += 1;
    }
    for (let node = from; live[node] !== root; ) {
      const next = live[node] as number;
      live[node] = root;
      node = next;
    }
    return root;
  };

  const firstEnds = new Int32Array(nodeCount).fill(-1);
  let unreported = distinctEnds;
  let state = 0;
  for (let index = 0; index < text.length && unreported > 0; index += 1) {
    const id = text[index] as number;
    steps += 1;
    if (id < 0 || id >= alphabetSize) {
      // No pattern holds it: every partial match ends here.
      state = 0;
      continue;
    }
    let next = trie.child(state, id);
    while (next < 0 && state !== 0) {
      state = failure[state] as number;
      next = trie.child(state, id);
      steps += 1;
    }
    state = next < 0 ? 0 : next;
    if (live[state] === 0) continue;
    for (let found = nearestUnreported(state); found !== 0; found = nearestUnreported(found)) {
      firstEnds[found] = index;
      live[found] = dictionary[found] as number;
      unreported -= 1;
    }
  }

  patterns.forEach((pattern, index) => {
    const node = endNodes[index] as number;
    const end = node < 0 ? -1 : (firstEnds[node] as number);
    if (end >= 0) firstStarts[index] = end - pattern.length + 1;
  });
  if (counter !== undefined) counter.steps += steps + patterns.length;
  return firstStarts;
}

/**
 * A trie over integer ids: node 0 is the root, with a table of children; any other node keeps its first
 * child in arrays, the rest in a map.
 */
class IdTrie {
  size = 1;
  private readonly rootChildren: Int32Array;
  private readonly rootIds: number[] = [];
  private readonly firstLabel: Int32Array;
  private readonly firstChild: Int32Array;
  /** `moreOf[node]` indexes `more` for a node with a second child, else -1. */
  private readonly moreOf: Int32Array;
  private readonly more: Map<number, number>[] = [];

  constructor(capacity: number, alphabetSize: number) {
    this.rootChildren = new Int32Array(alphabetSize).fill(-1);
    this.firstLabel = new Int32Array(capacity);
    this.firstChild = new Int32Array(capacity).fill(-1);
    this.moreOf = new Int32Array(capacity).fill(-1);
  }

  /** The child of `node` along `id` (in the alphabet), or -1. */
  child(node: number, id: number): number {
    if (node === 0) return this.rootChildren[id] as number;
    const first = this.firstChild[node] as number;
    if (first >= 0 && this.firstLabel[node] === id) return first;
    const more = this.moreOf[node] as number;
    if (more < 0) return -1;
    return (this.more[more] as Map<number, number>).get(id) ?? -1;
  }

  childOrAdd(node: number, id: number): number {
    const found = this.child(node, id);
    if (found >= 0) return found;
    const added = this.size;
    this.size += 1;
    if (node === 0) {
      this.rootChildren[id] = added;
      this.rootIds.push(id);
    } else if ((this.firstChild[node] as number) < 0) {
      this.firstLabel[node] = id;
      this.firstChild[node] = added;
    } else {
      let more = this.moreOf[node] as number;
      if (more < 0) {
        more = this.more.length;
        this.more.push(new Map());
        this.moreOf[node] = more;
      }
      (this.more[more] as Map<number, number>).set(id, added);
    }
    return added;
  }

  forEachChild(node: number, visit: (id: number, child: number) => void): void {
    if (node === 0) {
      for (const id of this.rootIds) visit(id, this.rootChildren[id] as number);
      return;
    }
    const first = this.firstChild[node] as number;
    if (first < 0) return;
    visit(this.firstLabel[node] as number, first);
    const more = this.moreOf[node] as number;
    if (more >= 0) for (const [id, child] of this.more[more] as Map<number, number>) visit(id, child);
  }
}
