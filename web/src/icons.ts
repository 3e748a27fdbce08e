// The page's icons as inline SVG (24x24, drawn in the text's colour), so that no font decides
// how a queen or a button looks: a machine without a symbol font showed U+23EE as an empty box.
import { svg } from "./dom";

export type IconName = "queen" | "first" | "back" | "forward" | "last" | "close" | "done";

// Filled shapes, or strokes for the two line icons.
const SHAPES: Record<IconName, { d: string; stroke?: boolean }> = {
  // A crown of five points on a band.
  queen: { d: "M3.5 17.5 2 7.5l5 4 5-7.5 5 7.5 5-4-1.5 10zM3.5 19.5h17V22h-17z" },
  first: { d: "M5 5h2.5v14H5zM19 5v14L9 12z" },
  back: { d: "M17 5v14L7 12z" },
  forward: { d: "M7 5v14l10-7z" },
  last: { d: "M16.5 5H19v14h-2.5zM5 5v14l10-7z" },
  close: { d: "M6 6l12 12M18 6 6 18", stroke: true },
  done: { d: "M5 12.5l4.5 4.5L19 7.5", stroke: true },
};

// The icon alone is decoration: the control it sits on carries the words (aria-label or text).
export function icon(name: IconName, cls = ""): SVGElement {
  const shape = SHAPES[name];
  const path = shape.stroke
    ? svg("path", { d: shape.d, fill: "none", stroke: "currentColor", "stroke-width": 2.5, "stroke-linecap": "round", "stroke-linejoin": "round" })
    : svg("path", { d: shape.d, fill: "currentColor" });
  return svg("svg", { viewBox: "0 0 24 24", class: `icon icon-${name}${cls ? ` ${cls}` : ""}`, "aria-hidden": "true", focusable: "false" }, path);
}
