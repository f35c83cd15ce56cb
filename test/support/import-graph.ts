import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

/** One module of `src` and the `src` modules it imports (type-only imports included). */
export interface ModuleNode {
  file: string;
  imports: string[];
}

const SPECIFIER = /^\s*(?:import|export)\b[^"';]*?\bfrom\s*"(\.{1,2}\/[^"]+)"/gm;

/** Every production module under `root` (tests and the playground's browser code left out), with its imports. */
export function readImportGraph(root: string): ModuleNode[] {
  const nodes: ModuleNode[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
        const text = readFileSync(path, "utf8");
        const imports = [...text.matchAll(SPECIFIER)].map((match) =>
          normalize(join(dirname(path), (match[1] as string).replace(/\.js$/, ".ts"))),
        );
        nodes.push({ file: relative(root, path), imports: imports.map((target) => relative(root, target)) });
      }
    }
  };
  walk(root);
  return nodes;
}

/** The import cycles among `nodes`, each as the list of files around it (Tarjan's strongly connected components). */
export function findCycles(nodes: readonly ModuleNode[]): string[][] {
  const edges = new Map(nodes.map((node) => [node.file, node.imports]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!edges.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target))
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (edges.get(file) ?? []).includes(file)) cycles.push(component.sort());
    }
  };
  for (const node of nodes) if (!index.has(node.file)) visit(node.file);
  return cycles;
}
