// node territory_check.js DUMP_PROGRAM: runs the C++ dump (territory_dump.cpp) and checks the web
// client's rules and territory code against it position by position: the same legal move count,
// and for every square the same queen and king distances of both sides and the same owner as
// ai::territory_map. Exits non-zero with the first differences.
import type { Variant } from "@protocol";
import { replay, squareName } from "../../web/src/rules";
import { owner, territoryMap } from "../../web/src/territory";

declare function require(module: string): any;
declare const process: { argv: string[]; exit(code: number): never };

interface Case {
  variant: Variant;
  moves: string[];
  legal_moves: number;
  squares: Record<string, [number, number, number, number, string]>;
}

const { execFileSync } = require("child_process");
const cases = JSON.parse(execFileSync(process.argv[2], { encoding: "utf8", maxBuffer: 1 << 28 })) as Case[];
const problems: string[] = [];
let squaresChecked = 0;
for (const [i, c] of cases.entries()) {
  const where = `position ${i} (${c.variant.name} after ${c.moves.length} moves)`;
  const r = replay(c.variant, c.moves);
  if (r.error) {
    problems.push(`${where}: ${r.error}`);
    continue;
  }
  const b = r.board;
  let legal = 0;
  for (const q of b.queens(b.toMove)) for (const to of b.destinations(q)) legal += b.arrowTargets(q, to).length;
  if (legal !== c.legal_moves) problems.push(`${where}: ${legal} legal moves, C++ counts ${c.legal_moves}`);
  const map = territoryMap(b);
  for (let s = 0; s < b.cells.length; ++s) {
    const name = squareName(s, b.size);
    const want = c.squares[name];
    const got = [map.queen.white[s], map.queen.black[s], map.king.white[s], map.king.black[s], owner(map, s) ?? ""];
    ++squaresChecked;
    if (!want || want.some((v, k) => v !== got[k])) problems.push(`${where} ${name}: web ${JSON.stringify(got)}, C++ ${JSON.stringify(want)}`);
  }
}
if (cases.length < 100) problems.push(`only ${cases.length} positions in the dump`);
if (problems.length > 0) {
  console.log(`${problems.length} differences; the first ones:\n` + problems.slice(0, 20).join("\n"));
  process.exit(1);
}
console.log(`${cases.length} positions, ${squaresChecked} squares: the web client agrees with ai::territory_map and the move generator`);
