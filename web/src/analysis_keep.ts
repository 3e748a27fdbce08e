// The analysis board's tree and switches kept in the browser, so that the screen opens again where
// it was left: the start position, every variation's moves and the path to the current node.
import { VariationTree, type TreeNode, readAnalysisInput } from "./analysis_tree";
import { parseMove, positionText } from "./rules";
import { BUILTIN_VARIANTS } from "@protocol";

const KEPT_KEY = "amazons.analysis.board";
const SETTINGS_KEY = "amazons.analysis.settings";

interface KeptNode {
  m: string;
  c: KeptNode[];
}
interface Kept {
  start: string;
  tree: KeptNode[];
  path: number[]; // child indices from the root to the current node
}

export interface AnalysisSwitches {
  engine: boolean;
  territory: boolean;
}

export function keepAnalysis(tree: VariationTree, switches: AnalysisSwitches): void {
  const keep = (n: TreeNode): KeptNode => ({ m: n.text, c: n.children.map(keep) });
  const path: number[] = [];
  for (const n of tree.path()) path.push(n.parent!.children.indexOf(n));
  const kept: Kept = { start: positionText(tree.start), tree: tree.root.children.map(keep), path };
  try {
    localStorage.setItem(KEPT_KEY, JSON.stringify(kept));
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(switches));
  } catch {
    /* a full storage loses only the resume */
  }
}

export function keptSwitches(): AnalysisSwitches {
  try {
    const s = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "{}") as { engine?: boolean; territory?: boolean };
    return { engine: s.engine !== false, territory: s.territory === true };
  } catch {
    return { engine: true, territory: false };
  }
}

// The kept tree, with what of it still reads (a move that does not is dropped with its line).
export function keptTree(): VariationTree | null {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT_KEY) ?? "null") as Kept | null;
    if (!kept || typeof kept.start !== "string") return null;
    const read = readAnalysisInput(kept.start, BUILTIN_VARIANTS[0]);
    if ("error" in read) return null;
    const tree = read.tree;
    const grow = (nodes: KeptNode[]) => {
      for (const n of nodes) {
        const m = parseMove(n.m, tree.start.size);
        if (!m || !tree.play(m)) continue;
        grow(n.c ?? []);
        tree.back();
      }
    };
    grow(kept.tree ?? []);
    for (const i of kept.path ?? []) {
      const next = tree.current.children[i];
      if (!next) break;
      tree.current = next;
    }
    return tree;
  } catch {
    return null;
  }
}
