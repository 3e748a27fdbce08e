// Who reaches each empty square first: the definition of ai::territory_map (ai/evaluate.h), so
// the browser's territory view agrees with the desktop client's. For each side, the number of
// queen moves (and king steps) its nearest queen needs over empty squares; 0 on its own queens,
// UNREACHED for other occupied squares and squares it cannot reach. A square belongs to the side
// that reaches it in fewer queen moves; ties, queens and unreachable squares belong to nobody.
import type { Color } from "@protocol";
import { Board, Cell, Square, queenCell } from "./rules";

export const UNREACHED = 255;
const MAX_DISTANCE = 254;

export interface TerritoryMap {
  size: number;
  queen: { white: Uint8Array; black: Uint8Array };
  king: { white: Uint8Array; black: Uint8Array };
}

const KING_STEPS: ReadonlyArray<readonly [number, number]> = [
  [1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1],
];

function layers(board: Board, c: Color, king: boolean): Uint8Array {
  const dist = new Uint8Array(board.cells.length).fill(UNREACHED);
  let frontier: Square[] = [];
  const own = queenCell(c);
  for (let s = 0; s < board.cells.length; ++s)
    if (board.cells[s] === own) {
      dist[s] = 0;
      frontier.push(s);
    }
  for (let d = 1; frontier.length > 0; ++d) {
    const next: Square[] = [];
    for (const from of frontier) {
      const f0 = board.file(from), r0 = board.rank(from);
      for (const [df, dr] of KING_STEPS) {
        for (let f = f0 + df, r = r0 + dr; f >= 0 && r >= 0 && f < board.size && r < board.size; f += df, r += dr) {
          const s = board.square(f, r);
          if (board.cells[s] !== Cell.Empty) break;
          if (dist[s] === UNREACHED) {
            dist[s] = Math.min(d, MAX_DISTANCE);
            next.push(s);
          }
          if (king) break;
        }
      }
    }
    frontier = next;
  }
  return dist;
}

export function territoryMap(board: Board): TerritoryMap {
  return {
    size: board.size,
    queen: { white: layers(board, "white", false), black: layers(board, "black", false) },
    king: { white: layers(board, "white", true), black: layers(board, "black", true) },
  };
}

export function owner(map: TerritoryMap, s: Square): Color | null {
  const w = map.queen.white[s], b = map.queen.black[s];
  if (w === 0 || b === 0 || w === b) return null;
  return w < b ? "white" : "black";
}
